/**
 * The game's source of chance: the Mersenne Twister (MT19937) seeded and drawn exactly as the
 * reference engine's (CPython's `random.Random`), so that the same seed deals the same cards and
 * makes the same reshuffles in either engine (`deal.dealer`, `deal.hands`, `turn.reshuffle`).
 *
 * A whole-number seed keys the generator with its absolute value in 32-bit words, least
 * significant first; a text or byte seed is first turned into the whole number of its bytes
 * followed by their SHA-512 digest, read big-endian.
 *
 * @module
 */
import { sha512 } from "./sha512.js";

const N = 624;
const M = 397;

const WORD = new Uint32Array(1);

/** A Mersenne Twister, drawn from as CPython's `random.Random` draws. */
export class Twister {
  private readonly mt = new Uint32Array(N);
  private index = N + 1;

  /** A generator keyed by `seed`: a whole number, a text or bytes (see the module). */
  constructor(seed: bigint | string | Uint8Array) {
    this.seed(typeof seed === "bigint" ? wordsOf(seed) : keyOf(seed));
  }

  /** Key the generator anew by the whole number `word` (0 <= word < 2^32), as a new one would be. */
  reseed(word: number): void {
    WORD[0] = word;
    this.seed(WORD);
  }

  /** The next 32 random bits, as a whole number. */
  next32(): number {
    const mt = this.mt;
    if (this.index >= N) {
      let kk = 0;
      for (; kk < N - M; kk++) {
        const y = ((mt[kk] as number) & 0x80000000) | ((mt[kk + 1] as number) & 0x7fffffff);
        mt[kk] = (mt[kk + M] as number) ^ (y >>> 1) ^ (y & 1 ? 0x9908b0df : 0);
      }
      for (; kk < N - 1; kk++) {
        const y = ((mt[kk] as number) & 0x80000000) | ((mt[kk + 1] as number) & 0x7fffffff);
        mt[kk] = (mt[kk + (M - N)] as number) ^ (y >>> 1) ^ (y & 1 ? 0x9908b0df : 0);
      }
      const y = ((mt[N - 1] as number) & 0x80000000) | ((mt[0] as number) & 0x7fffffff);
      mt[N - 1] = (mt[M - 1] as number) ^ (y >>> 1) ^ (y & 1 ? 0x9908b0df : 0);
      this.index = 0;
    }
    let y = mt[this.index++] as number;
    y ^= y >>> 11;
    y ^= (y << 7) & 0x9d2c5680;
    y ^= (y << 15) & 0xefc60000;
    y ^= y >>> 18;
    return y >>> 0;
  }

  /** `k` random bits (0 < k <= 32), as CPython's `getrandbits`. */
  bits(k: number): number {
    return this.next32() >>> (32 - k);
  }

  /** A whole number in `0..n-1` (`n` >= 1), as CPython's `_randbelow`. */
  below(n: number): number {
    const k = 32 - Math.clz32(n);
    let r = this.bits(k);
    while (r >= n) r = this.bits(k);
    return r;
  }

  /** A float in [0, 1) from 53 random bits, as CPython's `random()`. */
  random(): number {
    const a = this.next32() >>> 5;
    const b = this.next32() >>> 6;
    return (a * 67108864 + b) / 9007199254740992;
  }

  /** Shuffle `items` in place, as CPython's `shuffle`. */
  shuffle<T>(items: T[]): void {
    for (let i = items.length - 1; i > 0; i--) {
      const j = this.below(i + 1);
      const swap = items[i] as T;
      items[i] = items[j] as T;
      items[j] = swap;
    }
  }

  /** One of `items` (not empty), as CPython's `choice`. */
  choice<T>(items: readonly T[]): T {
    return items[this.below(items.length)] as T;
  }

  private seed(key: Uint32Array): void {
    const mt = this.mt;
    mt[0] = 19650218;
    for (let i = 1; i < N; i++) {
      const prev = mt[i - 1] as number;
      mt[i] = Math.imul(1812433253, prev ^ (prev >>> 30)) + i;
    }
    let i = 1;
    let j = 0;
    for (let k = Math.max(N, key.length); k > 0; k--) {
      const prev = mt[i - 1] as number;
      mt[i] = ((mt[i] as number) ^ Math.imul(prev ^ (prev >>> 30), 1664525)) + (key[j] as number) + j;
      i++;
      j++;
      if (i >= N) {
        mt[0] = mt[N - 1] as number;
        i = 1;
      }
      if (j >= key.length) j = 0;
    }
    for (let k = N - 1; k > 0; k--) {
      const prev = mt[i - 1] as number;
      mt[i] = ((mt[i] as number) ^ Math.imul(prev ^ (prev >>> 30), 1566083941)) - i;
      i++;
      if (i >= N) {
        mt[0] = mt[N - 1] as number;
        i = 1;
      }
    }
    mt[0] = 0x80000000;
    this.index = N;
  }
}

/** The 32-bit words of `|n|`, least significant first (one zero word for 0); linear in its size. */
function wordsOf(n: bigint): Uint32Array {
  const hex = (n < 0n ? -n : n).toString(16);
  const words = new Uint32Array(Math.ceil(hex.length / 8));
  for (let k = 0, end = hex.length; end > 0; k++, end -= 8) {
    words[k] = parseInt(hex.slice(Math.max(0, end - 8), end), 16);
  }
  return words;
}

/**
 * The words of the whole number CPython makes of a text or byte seed: its bytes then their
 * SHA-512, read big-endian (leading zero words dropped, as the number has none).
 */
function keyOf(seed: string | Uint8Array): Uint32Array {
  const text = typeof seed === "string" ? new TextEncoder().encode(seed) : seed;
  const digest = sha512(text);
  const bytes = new Uint8Array(text.length + digest.length);
  bytes.set(text);
  bytes.set(digest, text.length);
  const words = new Uint32Array(Math.ceil(bytes.length / 4));
  for (let i = 0; i < bytes.length; i++) {
    const fromEnd = bytes.length - 1 - i;
    const k = fromEnd >> 2;
    words[k] = ((words[k] as number) | ((bytes[i] as number) << (8 * (fromEnd & 3)))) >>> 0;
  }
  let used = words.length;
  while (used > 1 && words[used - 1] === 0) used--;
  return words.subarray(0, used);
}
