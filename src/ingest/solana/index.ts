/** Raw Solana getBlock decoding: the public surface of `src/ingest/solana`. */
export { decodeGetBlockFile, slotFromName, type BlockStats, type DecodeIssue, type GetBlockDecodeOptions, type GetBlockDecodeResult } from './get-block.js';
export { MAINNET_SIMD0170_ACTIVATION_SLOT } from './options.js';
export { readTokenList, tokenNames, MAINNET_CHAIN_ID, type TokenName } from './token-list.js';
export { DEFAULT_QUOTE_ORDER } from './trades.js';
export { JITO_TIP_ACCOUNTS, SIMD0170_BUILTIN_PROGRAMS, USDC_MINT, USDT_MINT, WSOL_MINT } from './programs.js';
