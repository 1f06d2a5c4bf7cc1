// Script ranges checked first: a query mostly in one of these scripts is that script's language.
const scripts: readonly { language: string; pattern: RegExp }[] = [
  { language: 'ja', pattern: /[\u3040-\u30ff]/gu }, // hiragana, katakana (checked before Han)
  { language: 'ko', pattern: /[\uac00-\ud7af\u1100-\u11ff]/gu },
  { language: 'zh', pattern: /[\u4e00-\u9fff\u3400-\u4dbf]/gu },
  { language: 'ru', pattern: /[\u0400-\u04ff]/gu },
  { language: 'ar', pattern: /[\u0600-\u06ff]/gu },
  { language: 'hi', pattern: /[\u0900-\u097f]/gu },
  { language: 'el', pattern: /[\u0370-\u03ff]/gu },
  { language: 'he', pattern: /[\u0590-\u05ff]/gu },
  { language: 'th', pattern: /[\u0e00-\u0e7f]/gu },
];

// Frequent function words of Latin-script languages; each occurrence scores one point.
const stopWords: Record<string, ReadonlySet<string>> = {
  en: new Set([
    'the',
    'and',
    'is',
    'are',
    'of',
    'to',
    'in',
    'what',
    'how',
    'why',
    'with',
    'for',
    'this',
    'that',
    'it',
    'can',
    'you',
    'do',
    'does',
    'my',
    'a',
    'an',
  ]),
  es: new Set([
    'de',
    'la',
    'el',
    'los',
    'las',
    'es',
    'son',
    'qué',
    'cómo',
    'por',
    'para',
    'una',
    'con',
    'del',
    'que',
    'y',
    'en',
    'mi',
    'puedes',
  ]),
  fr: new Set([
    'de',
    'la',
    'le',
    'les',
    'est',
    'sont',
    'des',
    'une',
    'pour',
    'avec',
    'dans',
    'que',
    'qui',
    'et',
    'comment',
    'pourquoi',
    'je',
    'vous',
    'du',
    'un',
  ]),
  de: new Set([
    'der',
    'die',
    'das',
    'ist',
    'sind',
    'und',
    'nicht',
    'mit',
    'für',
    'ein',
    'eine',
    'wie',
    'warum',
    'ich',
    'du',
    'zu',
    'den',
    'dem',
  ]),
  pt: new Set([
    'de',
    'o',
    'os',
    'as',
    'é',
    'são',
    'não',
    'com',
    'para',
    'uma',
    'um',
    'que',
    'e',
    'em',
    'como',
    'por',
    'do',
    'da',
    'você',
  ]),
  it: new Set([
    'la',
    'il',
    'lo',
    'gli',
    'è',
    'sono',
    'non',
    'con',
    'per',
    'una',
    'che',
    'e',
    'di',
    'come',
    'perché',
    'della',
    'un',
  ]),
  nl: new Set([
    'de',
    'het',
    'een',
    'is',
    'zijn',
    'niet',
    'met',
    'voor',
    'van',
    'en',
    'hoe',
    'waarom',
    'ik',
    'je',
    'dat',
  ]),
};

/**
 * A heuristic for the query's language, as an ISO 639-1 code, or `und` (BCP 47 "undetermined").
 * Non-Latin scripts decide by script (Japanese kana before Han; Cyrillic is reported as `ru`),
 * when at least a third of the letters are in it. Latin-script text is scored by frequent
 * function words of en, es, fr, de, pt, it and nl; the most hits wins, ties go to that order;
 * no hit gives `und`. The text is only matched against, never kept.
 */
export function detectQueryLanguage(query: string): string {
  const letters = (query.match(/\p{L}/gu) ?? []).length;
  if (letters === 0) return 'und';
  for (const { language, pattern } of scripts) {
    const count = (query.match(pattern) ?? []).length;
    if (count * 3 >= letters) return language;
  }
  const words = query.toLowerCase().match(/\p{L}+/gu) ?? [];
  let best = 'und';
  let bestScore = 0;
  for (const [language, set] of Object.entries(stopWords)) {
    let score = 0;
    for (const word of words) if (set.has(word)) score++;
    if (score > bestScore) {
      best = language;
      bestScore = score;
    }
  }
  return best;
}
