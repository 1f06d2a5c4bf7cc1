/**
 * A council member's persona (design doc §4.3): stored as a YAML file with snake_case keys
 * (`id`, `name`, `model`, `system_prompt`, optional `traits` and `parents`).
 */
export interface Personality {
  /** Unique id; also the member id in sessions. */
  id: string;
  name: string;
  /** The model id that plays this personality. */
  model: string;
  systemPrompt: string;
  traits?: string[];
  /** Ids of the personalities it was evolved from: its lineage. */
  parents?: string[];
}
