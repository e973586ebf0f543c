import { countTokens as countO200k } from 'gpt-tokenizer/encoding/o200k_base';

/** Tokens as counted by the o200k_base encoding (GPT-4o and later); close to other current tokenizers. */
export function countTokens(text: string): number {
  return countO200k(text);
}
