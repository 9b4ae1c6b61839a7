/**
 * Sizes in tokens for agents deciding what fits their context: the o200k_base
 * encoding (GPT-4o and later), counted by gpt-tokenizer. Other models' tokenizers
 * differ by a few percent; the figure is a guide, not a contract.
 */
import { createRequire } from 'node:module';

// Loaded on the first count (the encoding's tables take ~150 ms to load): a warm build
// that emits nothing, and `agora check`, never pay for it. `require` keeps the count
// synchronous, as emitters are.
const require = createRequire(import.meta.url);
let countTokens: ((text: string) => number) | undefined;

/** Name of the encoding the counts use, as documents state it. */
export const TOKEN_ENCODING = 'o200k_base';

/** Default most tokens in one `llms-full` part (`llmsFullMaxTokens` in agora.config.json). */
export const DEFAULT_LLMS_FULL_MAX_TOKENS = 100_000;

/**
 * Count the tokens of a text.
 *
 * @param text Any text.
 */
export function countTextTokens(text: string): number {
  countTokens ??= (require('gpt-tokenizer/encoding/o200k_base') as { countTokens: (text: string) => number }).countTokens;
  return countTokens(text);
}
