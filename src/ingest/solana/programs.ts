/** Well-known Solana program ids and mints that decoding depends on. */

/** The ComputeBudget program; its top-level instructions set the CU limit and price. */
export const COMPUTE_BUDGET_PROGRAM = 'ComputeBudget111111111111111111111111111111';
/** The Vote program. */
export const VOTE_PROGRAM = 'Vote111111111111111111111111111111111111111';
/** The ed25519 signature-verification precompile. */
export const ED25519_PROGRAM = 'Ed25519SigVerify111111111111111111111111111';
/** The secp256k1 (Ethereum-style) signature-recovery precompile. */
export const SECP256K1_PROGRAM = 'KeccakSecp256k11111111111111111111111111111';
/** The secp256r1 signature-verification precompile (SIMD-0075). */
export const SECP256R1_PROGRAM = 'Secp256r1SigVerify1111111111111111111111111';
/** The precompiles whose instruction data starts with the number of signatures to verify. */
export const PRECOMPILE_PROGRAMS: ReadonlySet<string> = new Set([ED25519_PROGRAM, SECP256K1_PROGRAM, SECP256R1_PROGRAM]);

/** Native SOL and its SPL wrapper share this mint in trades and tokens. */
export const WSOL_MINT = 'So11111111111111111111111111111111111111112';
/** Circle's USDC on Solana. */
export const USDC_MINT = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
/** Tether's USDT on Solana. */
export const USDT_MINT = 'Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB';

/** The upgradeable BPF loader: while a transaction loads it, the programs it invokes stay writable (upgrades). */
export const UPGRADEABLE_LOADER = 'BPFLoaderUpgradeab1e11111111111111111111111';

/**
 * Keys the runtime never write-locks, whatever the message asks: agave's reserved account keys
 * (`ReservedAccountKeys::new_all_activated`, the set the RPC's jsonParsed also uses): the builtin
 * programs, the precompiles and the sysvars.
 */
export const RESERVED_ACCOUNT_KEYS: ReadonlySet<string> = new Set([
  '11111111111111111111111111111111', // System
  'AddressLookupTab1e1111111111111111111111111',
  'BPFLoader1111111111111111111111111111111111',
  'BPFLoader2111111111111111111111111111111111',
  UPGRADEABLE_LOADER,
  COMPUTE_BUDGET_PROGRAM,
  'Config1111111111111111111111111111111111111',
  ED25519_PROGRAM,
  'Feature111111111111111111111111111111111111',
  'LoaderV411111111111111111111111111111111111',
  'NativeLoader1111111111111111111111111111111',
  SECP256K1_PROGRAM,
  SECP256R1_PROGRAM,
  'StakeConfig11111111111111111111111111111111',
  'Stake11111111111111111111111111111111111111',
  VOTE_PROGRAM,
  'ZkE1Gama1Proof11111111111111111111111111111',
  'ZkTokenProof1111111111111111111111111111111',
  'SysvarC1ock11111111111111111111111111111111',
  'SysvarEpochRewards1111111111111111111111111',
  'SysvarEpochSchedu1e111111111111111111111111',
  'SysvarFees111111111111111111111111111111111',
  'Sysvar1nstructions1111111111111111111111111',
  'SysvarLastRestartS1ot1111111111111111111111',
  'SysvarRecentB1ockHashes11111111111111111111',
  'SysvarRent111111111111111111111111111111111',
  'SysvarRewards111111111111111111111111111111',
  'SysvarS1otHashes111111111111111111111111111',
  'SysvarS1otHistory11111111111111111111111111',
  'SysvarStakeHistory1111111111111111111111111',
  'Sysvar1111111111111111111111111111111111111', // the sysvar owner
]);

/**
 * Programs that get 3,000 CUs instead of 200,000 in the default limit (SIMD-0170), from agave's
 * `builtins-default-costs`: Vote, System, ComputeBudget, the BPF loaders (deprecated v1, v2,
 * upgradeable) and loader v4, the secp256k1 and ed25519 precompiles, and Stake, a builtin until its
 * Core BPF migration feature activates (assumed inactive for 2025 data; unverified). A builtin whose
 * migration feature is active counts as an ordinary program: Config (migrated December 2024) and
 * AddressLookupTable (treated as migrated; unverified) are therefore absent. Secp256r1 was never in
 * agave's list. The 2025 fixture block verifies System and ComputeBudget only (no Stake, Config or
 * lookup-table instruction goes without a SetComputeUnitLimit there); `builtinPrograms` overrides it.
 */
export const SIMD0170_BUILTIN_PROGRAMS: ReadonlySet<string> = new Set([
  VOTE_PROGRAM,
  '11111111111111111111111111111111', // System
  COMPUTE_BUDGET_PROGRAM,
  UPGRADEABLE_LOADER,
  'BPFLoader1111111111111111111111111111111111', // deprecated loader (v1)
  'BPFLoader2111111111111111111111111111111111',
  'LoaderV411111111111111111111111111111111111',
  SECP256K1_PROGRAM,
  ED25519_PROGRAM,
  'Stake11111111111111111111111111111111111111',
]);

/** Jito's eight tip accounts: lamports a signer pays into them are a tip, not part of a trade. */
export const JITO_TIP_ACCOUNTS: ReadonlySet<string> = new Set([
  '96gYZGLnJYVFmbjzopPSU6QiEV5fGqZNyN9nmNhvrZU5',
  'HFqU5x63VTqvQss8hp11i4wVV8bD44PvwucfZ2bU7gRe',
  'Cw8CFyM9FkoMi7K7Crf6HNQqf4uEMzpKw6QNghXLvLkY',
  'ADaUMid9yfUytqMBgopwjb2DTLSokTSzL1zt6iGPaS49',
  'DfXygSm4jCyNCybVYYK6DwvWqjKee8pbDmJGcLWNDXjh',
  'ADuUkR4vqLUMWXxW9gh6D6L8pMSawimctcNZ5pGwDcEt',
  'DttWaMuVvTiduZRnguLF7jNxTgiMBZ1hyAumKUiL2KRL',
  '3AVi9Tg9Uo68tJfuvoKvqKNWKkC5wPdSSdeBnizKZ6jT',
]);
