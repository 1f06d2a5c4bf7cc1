/** The categories `detectQueryCategory` assigns. A small, documented set; anything unrecognised is `general`. */
export const queryCategories: readonly ['coding', 'math', 'writing', 'analysis', 'general'] = [
  'coding',
  'math',
  'writing',
  'analysis',
  'general',
];

export type QueryCategory = (typeof queryCategories)[number];

// Each cue is a whole-word (or symbol) pattern; a query scores one point per distinct cue it contains.
const cues: Record<Exclude<QueryCategory, 'general'>, readonly RegExp[]> = {
  coding: [
    /```/,
    /\b(?:code|coding|program|programming|programmer|function|functions|method|class|classes|bug|bugs|debug|debugging|compile|compiler|refactor|refactoring|repository|repo|monorepo|stack ?trace|exception|segfault|script|algorithm|algorithms|regular expression|variable|variables|loop|recursion|pull request|commit|merge conflict|unit tests?|integration tests?|test suite|parser|linked list|hash ?map|binary tree|big-?o|runtime error|syntax error|memory leak|garbage collection|race condition|mutex|thread|threads|deadlock|dependency injection|endpoint|rest api|backend|frontend|database migrations?|continuous integration|deploy|deployment|borrow checker|component|localstorage|jwt|oauth|null pointer|undefined is not|library|libraries|software|web service|web app|website|server|cache|caching|makefile|compiler|android|ios app|mobile app|div|closures?|crash|crashes|error message|version control|open source)\b/,
    /\b(?:python|javascript|typescript|java|jvm|rust|golang|go project|kotlin|swift|c\+\+|c#|ruby|php|sql|bash|regex|html|css|json|yaml|api|apis|npm|git|github|docker|kubernetes|react|node\.js|nodejs|django|flask|rails|nginx|linux|http|graphql)\b/,
    /\b(?:def|const|let|var)\s+\w+\s*[=(:]|\bimport\s+[\w{*]|\b(?:async|await|lambda|struct|enum)\b/,
    /=>|\(\)\s*[{;]|;\s*$|\b\w+\.\w+\(|\b\w+\[\w+\]|\brange\(/m,
  ],
  math: [
    /\d\s*[-+*/^×÷=]\s*\d|\b[a-z]\s*\^\s*\d|\d\s*%\s*of\s+\d/,
    /\b(?:calculate|calculated|compute|solve|simplify|equation|equations|integral|derivative|differentiate|integrate|probability|chance|odds|expected value|theorem|prove|proof|algebra|geometry|calculus|matrix|matrices|eigenvalues?|eigenvectors?|arithmetic|percent|percentage|sum of|square root|logarithm|math|maths|mathematics|prime|fraction|decimal|area of|volume of|radius|triangle|sphere|circle|series|convergent|divergent|limit of|infinity|standard deviation|variance|mean|median|dividing by zero|divided by|how many ways|permutations?|combinations?|vertices|compound interest|catch up|factorial|slope|sine|cosine|tangent|angle|degrees|factor|polynomial|quadratic|exponent|diameter|circumference|perimeter|how many \w+ are there in)\b/,
    /[∫∑√π∞≤≥≠]/,
  ],
  writing: [
    /\b(?:write|rewrite|draft|compose|essay|essays|story|poem|poetry|haiku|limerick|lyrics|letter|email|blog|blog post|article|cover letter|proofread|paraphrase|tone|headline|headlines|slogan|tagline|pitch|novel|narrative|toast|speech|bio|summari[sz]e|outline|persuasive|release notes|thank-you note|condolence|linkedin post|product description|message|title for|word an?|paragraph|newsletter|bullet points|caption|wording|rephrase|cover letter|apology)\b/,
    /\b(?:edit|polish|shorten|reword|improve) (?:my|this|the|our)\b|\bsounds? (?:less|more)\b|\bmake (?:this|my|it) (?:more|less)\b/,
  ],
  analysis: [
    /\b(?:analy[sz]e|analysis|compare|compared|comparison|contrast|evaluate|evaluation|assess|assessment|pros and cons|trade-?offs?|critique|implications|impact|strategy|strengths|weaknesses|swot|explain why|root cause|weigh|advantages|disadvantages|benefits|risks|consequences|caused|causes|factors|lessons (?:can|to) be (?:learned|learnt|drawn)|evidence|arguments|interpret|for and against|explains?|effect|effects|rise of|decline of|makes sense|worth it)\b/,
    /\b(?:why did|why do (?:most|many|so many)|what would happen|how will|how does [\w\s]+ affect|should (?:a|an|the|our|we) \w+|is it (?:better|worth)|better to|stronger candidate|too high|too low|likely)\b/,
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
