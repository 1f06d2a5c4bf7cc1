/**
 * The commented `config.yaml` that `council config init` writes. Every key is commented out, so the file
 * changes nothing until a line is uncommented; each shows its default and what it accepts. The keys are core's
 * configuration cascade (see @council/core's README, "Configuration cascade"), snake_case as files use them.
 */
export const configTemplate = `# Council configuration: $LLM_COUNCIL_HOME/config.yaml (written by \`council config init\`).
# Every key is optional and commented out: uncomment a line to change it. Later layers win key by key:
# built-in defaults < this file < organizations/<org>/config/system-prompts.yaml (--org, LLM_COUNCIL_ORG)
# < LLM_COUNCIL_MODELS / LLM_COUNCIL_CHAIRMAN / LLM_COUNCIL_BIAS_AUDIT < command-line flags.
# Check it with: council config show

# Who sits on the council when --models is not given (model ids or personality ids), and who synthesises.
# members: [openai/gpt-4o, anthropic/claude-3.5-sonnet, google/gemini-2.0-flash-001]
# chairman: openai/gpt-4o            # default: the first member
# chairman_fallbacks: []             # tried in order when the chairman fails
# pools:                             # named councils: --models @deep (or @quick,x/y), --chairman @deep
#   quick: [openai/gpt-4o-mini, google/gemini-2.0-flash-001]
#   deep: [openai/gpt-4o, anthropic/claude-3.5-sonnet, google/gemini-2.5-pro]

# Per model id: a system prompt for its answers and a temperature for its calls (a personality keeps its own
# prompt). ask and batch --system and -o temperature=…, and serve's and MCP's system and temperature, win for a run.
# model_options:
#   openai/gpt-4o:
#     system: Answer in at most three paragraphs, and say what you are unsure of.
#     temperature: 0.2               # 0 to 2; default the model's own
#   anthropic/claude-3.5-sonnet:
#     temperature: 0.7

# How the council concludes.
# strategy: balanced                 # balanced, risk-averse, goal-seeking, novelty, or a key under strategies
# mode: consensus                    # consensus or voting (voting also names a winner)
# mode_toggle: true                  # false: council serve offers no Voting/Consensus toggle and runs only mode
# strategies:                        # your own directives for the chairman, by key ({goal} is filled in)
#   compliance-first: Discard any proposal that a regulator could object to; explain each discard.

# Jury mode: each member decides approve, reject or unclear, and the verdict is their Borda-weighted majority
# (ask, batch and gate --verdict, serve's Verdict choice, MCP's verdict win for a run; gate is always a jury).
# verdict: binary                    # binary, or tie-breaker (the chairman breaks an exact tie); default none: answer
# verdict_min_margin: 0.1            # 0 to 1: the smallest weighted margin that decides; below it the verdict is unclear

# Stage 2: how answers are ordered for each reviewer, and who reviews whom.
# order: latin-square                # shared, per-reviewer or latin-square
# exclude_self_votes: true           # a reviewer's vote for its own answer does not count in the ranking
# self_review: include               # include (self-preference can be measured) or omit a reviewer's own answer

# Robustness.
# quorum: 2                          # the fewest answers to go on with
# retries: 2                         # retries of a model call after a temporary failure (429, 5xx, network), 0 to 10
# max_cost_usd: 0.50                 # stop before a stage whose estimated cost would pass this (US dollars); default none
# max_reply_bytes: 4194304           # the longest reply a model may send (1024 to 1 GiB); a longer one is excluded
# timeouts:                          # per model call, in milliseconds
#   stage1_ms: 120000                # answering
#   stage2_ms: 120000                # reviewing
#   stage3_ms: 180000                # synthesising
# providers:                         # per provider, the first part of a model id
#   ollama:
#     max_concurrency: 1             # calls sent at once, 1 to 256 (default 1 for ollama, llamacpp, lmstudio; else 16)

# Bias indicators (ADR-015) on every session; ask shows them unless LLM_COUNCIL_BIAS_AUDIT is false.
# bias_audit: false

# Bias records (ADR-018), off until you opt in: true saves each session's bias and contribution records in this
# home for \`council bias-report\` and \`council contributions\`: ids, positions, lengths and scores, never the
# question. Nothing is saved at consent level 0 (LLM_COUNCIL_BIAS_CONSENT); LLM_COUNCIL_BIAS_PERSISTENCE, when set,
# wins over this line. \`council config init --bias-records\` writes this line uncommented.
# bias_persistence: true             # default false: uncomment to collect bias records

# History: each session's question is kept in this home's history.jsonl (local only, never in bias records,
# contributions, telemetry or logs), so that \`council history\` and \`council serve\` show and search it.
# history_questions: false           # default true: false keeps no question in the history

# Prompts can be replaced too: evaluation_prompt (needs {query} and {responses}), ranking_enforced_output_format
# (must contain FINAL RANKING), consensus_prompt (needs {query}, {responses}, {directive}, {attribution_format}),
# attribution_format (must contain contributors), voting_instruction, evolution_prompt, feedback_summary_prompt,
# follow_up_prompt (ask --continue; needs {previous_answer}, {query} and {boundary}), and in jury mode
# jury_prompt (each member's question; needs {query}, and asks for the decision's JSON block) and
# jury_chairman_prompt (the chairman's rationale and dissent; needs {votes} and {verdict}).
`;

/** The template's bias_persistence line, which `council config init --bias-records` writes uncommented. */
export const BIAS_PERSISTENCE_LINE =
  '# bias_persistence: true             # default false: uncomment to collect bias records';
