/**
 * The most members one council may have: 32, the same for `runCouncil` and every front end (`council ask`, `batch`,
 * `serve` and `mcp`). Each member's answer goes into every reviewer's prompt, so a session costs about N² answer-reads:
 * 32 members make 32 reviews of 32 answers (1,024 reads, plus the chairman's prompt of all 32); at 1,000 tokens an
 * answer, each review prompt already holds 32,000 tokens of answers, a 32k-token context window. Past that, reviews
 * fail for lack of context rather than tell anything more. Chairman fallbacks are not members and do not count.
 */
export const MAX_COUNCIL_MEMBERS = 32;
