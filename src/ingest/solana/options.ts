/** Options of getBlock decoding and their defaults. */
import type { DefaultLimitRule } from './compute-budget.js';
import { JITO_TIP_ACCOUNTS, SIMD0170_BUILTIN_PROGRAMS } from './programs.js';
import type { TokenName } from './token-list.js';
import { DEFAULT_QUOTE_ORDER, type TradeRules } from './trades.js';

/**
 * First mainnet slot of SIMD-0170 (builtin instructions get 3,000 CUs in the default limit): feature
 * C9oAhLxDBm3ssWtJx1yBGzPY55r2rArHmN1pbQn6HogH, active since epoch 758 = slot 327,456,000
 * (agave PR #5632). Devnet/testnet data needs its own cluster's slot (devnet 363,744,000, testnet 318,476,256).
 */
export const MAINNET_SIMD0170_ACTIVATION_SLOT = 327_456_000n;

/** Options of `decodeGetBlockFile`. */
export interface GetBlockDecodeOptions {
  /** Slot from which the SIMD-0170 default limit applies. Default: mainnet's, 327,456,000. */
  readonly simd0170ActivationSlot?: bigint | number;
  /** Programs that count as builtin (3,000 CUs) under SIMD-0170. Default: SIMD0170_BUILTIN_PROGRAMS. */
  readonly builtinPrograms?: ReadonlySet<string>;
  /** Quote preference, most quote-like first. Default: USDC, USDT, SOL/wSOL. */
  readonly quoteOrder?: readonly string[];
  /** Accounts whose received lamports are tips paid by the signer. Default: Jito's tip accounts. */
  readonly tipAccounts?: ReadonlySet<string>;
  /** Token names by mint (see `readTokenList`, `tokenNames`). Unknown mints get '' as name and symbol. */
  readonly tokenNames?: ReadonlyMap<string, TokenName>;
}

/** Options with every default filled in. */
export interface DecodeSettings {
  readonly simd0170ActivationSlot: bigint;
  readonly builtinPrograms: ReadonlySet<string>;
  readonly trades: TradeRules;
  readonly tokenNames: ReadonlyMap<string, TokenName>;
}

/** Fills in the defaults. */
export function resolveOptions(options: GetBlockDecodeOptions = {}): DecodeSettings {
  return {
    simd0170ActivationSlot: BigInt(options.simd0170ActivationSlot ?? MAINNET_SIMD0170_ACTIVATION_SLOT),
    builtinPrograms: options.builtinPrograms ?? SIMD0170_BUILTIN_PROGRAMS,
    trades: {
      quoteOrder: options.quoteOrder ?? DEFAULT_QUOTE_ORDER,
      tipAccounts: options.tipAccounts ?? JITO_TIP_ACCOUNTS,
    },
    tokenNames: options.tokenNames ?? new Map(),
  };
}

/** The default-limit rule in force at `slot`. */
export function defaultLimitRuleAt(slot: bigint, settings: DecodeSettings): DefaultLimitRule {
  return { simd0170: slot >= settings.simd0170ActivationSlot, builtinPrograms: settings.builtinPrograms };
}
