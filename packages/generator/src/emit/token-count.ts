/**
 * Sizes in tokens for agents deciding what fits their context: the o200k_base
 * encoding (GPT-4o and later), counted by gpt-tokenizer. Other models' tokenizers
 * differ by a few percent; the figure is a guide, not a contract.
 */
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';

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
  return countTokens(text);
}
