/** The categories `detectQueryCategory` assigns. A small, documented set; anything unrecognised is `general`. */
export const queryCategories: readonly ['coding', 'math', 'writing', 'analysis', 'general'] = ['coding', 'math', 'writing', 'analysis', 'general'];

export type QueryCategory = (typeof queryCategories)[number];

// Each cue is a whole-word (or symbol) pattern; a query scores one point per distinct cue it contains.
const cues: Record<Exclude<QueryCategory, 'general'>, readonly RegExp[]> = {
  coding: [
    /```/,
    /\b(?:code|coding|function|functions|method|class|classes|bug|debug|debugging|compile|compiler|refactor|repository|stack ?trace|exception|segfault)\b/,
    /\b(?:python|javascript|typescript|java|rust|golang|kotlin|swift|c\+\+|c#|ruby|php|sql|bash|regex|html|css|json|yaml|api|npm|git|docker|kubernetes)\b/,
    /\b(?:def|import|return|const|let|var|async|await|lambda|struct|enum)\b/,
    /=>|\(\)\s*[{;]|;\s*$|\b\w+\.\w+\(/m,
  ],
  math: [
    /\d\s*[-+*/^×÷=]\s*\d/,
    /\b(?:calculate|compute|solve|equation|equations|integral|derivative|differentiate|integrate|probability|theorem|prove|proof|algebra|geometry|calculus|matrix|matrices|arithmetic|percent|percentage|sum of|square root|logarithm|math|maths|mathematics)\b/,
    /[∫∑√π∞≤≥≠]/,
  ],
  writing: [
    /\b(?:write|rewrite|draft|essay|story|poem|poetry|lyrics|letter|email|blog|article|cover letter|proofread|paraphrase|tone|headline|slogan|novel|fiction|narrative)\b/,
  ],
  analysis: [
    /\b(?:analy[sz]e|analysis|compare|comparison|contrast|evaluate|evaluation|assess|assessment|pros and cons|trade-?offs?|critique|implications|impact|strategy|strengths|weaknesses|swot|explain why|root cause)\b/,
  ],
};

const priority: readonly Exclude<QueryCategory, 'general'>[] = ['coding', 'math', 'writing', 'analysis'];

/**
 * A keyword heuristic for the query's category: each category scores one point per distinct cue
 * (see the README for the cue lists); the highest score wins, ties go to the earlier of
 * coding, math, writing, analysis; no cue at all gives `general`. English cues only.
 * The text is only matched against, never kept.
 */
export function detectQueryCategory(query: string): QueryCategory {
  const lower = query.toLowerCase();
  let best: QueryCategory = 'general';
  let bestScore = 0;
  for (const category of priority) {
    let score = 0;
    for (const cue of cues[category]) if (cue.test(lower)) score++;
    if (score > bestScore) {
      best = category;
      bestScore = score;
    }
  }
  return best;
}
