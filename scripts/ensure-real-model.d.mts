// Types of ensure-real-model.mjs, for the TypeScript that imports it (tooling/real-model).
export type RealModelName = 'smollm2' | 'gemma';

export declare const realModelCacheDir: string;
export declare const realModels: Record<
  RealModelName,
  { name: string; pip: string[]; sha256: string; locate: () => string }
>;
export declare class RealModelError extends Error {}
/** The checked GGUF path of an installed model, or null when it is not installed. Installs nothing. */
export declare function realModelPath(model?: RealModelName): string | null;
/** Installs the model's package when needed, checks the file's sha256 and returns its path. */
export declare function ensureRealModel(options?: {
  model?: RealModelName;
  log?: (line: string) => void;
}): Promise<string>;
