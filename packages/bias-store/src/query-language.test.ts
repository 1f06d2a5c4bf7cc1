import { describe, expect, it } from 'vitest';
import { detectQueryLanguage } from './query-language.js';

describe('detectQueryLanguage', () => {
  it.each([
    ['What is the best way to learn the guitar?', 'en'],
    ['¿Cuál es la mejor manera de aprender a tocar la guitarra?', 'es'],
    ['Quelle est la meilleure façon de faire une tarte aux pommes pour les enfants ?', 'fr'],
    ['Wie kann ich die Datei mit Python öffnen und warum ist das nicht einfach?', 'de'],
    ['Como é que eu posso fazer um bolo de chocolate sem ovos?', 'pt'],
    ['Qual è il modo migliore per imparare la lingua e perché non funziona?', 'it'],
    ['Hoe kan ik het beste een fiets kopen en waarom is dat niet makkelijk?', 'nl'],
    ['如何学习编程？', 'zh'],
    ['プログラミングを学ぶにはどうすればいいですか？', 'ja'],
    ['프로그래밍을 배우려면 어떻게 해야 하나요?', 'ko'],
    ['Как выучить программирование?', 'ru'],
    ['كيف أتعلم البرمجة؟', 'ar'],
    ['प्रोग्रामिंग कैसे सीखें?', 'hi'],
    ['Πώς μαθαίνω προγραμματισμό;', 'el'],
    ['איך לומדים תכנות?', 'he'],
    ['เรียนเขียนโปรแกรมอย่างไร', 'th'],
    ['12345 + 678', 'und'],
    ['xyzzy plugh', 'und'],
  ] as const)('%j → %s', (query, expected) => {
    expect(detectQueryLanguage(query)).toBe(expected);
  });
});
