const PAGE: u64 = 65536;
/** wasm32 holds at most 4 GiB: 65,536 pages. */
const MAX_PAGES: u64 = 65536;

/**
 * Grows linear memory to hold `end` bytes, zero-filling the new pages at once (so the kernel's first
 * touches do not fault one page at a time). False when wasm32 cannot hold that much. Growing
 * detaches every JS view of the memory.
 */
export function growTo(end: u64): bool {
  const pages = (end + PAGE - 1) / PAGE;
  if (pages > MAX_PAGES) return false;
  const have = <u64>memory.size();
  if (pages > have) {
    if (memory.grow(<i32>(pages - have)) < 0) return false;
    memory.fill(<usize>(have * PAGE), 0, <usize>((pages - have) * PAGE));
  }
  return true;
}

/** `x` rounded up to a multiple of 16 (where a region of linear memory starts). */
@inline export function align16(x: usize): usize {
  return (x + 15) & ~15;
}
