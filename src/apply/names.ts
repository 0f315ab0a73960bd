// Names for pods created offline, as the API server would make them from generateName
// (apiserver/pkg/storage/names/generate.go: the base cut to 58 characters, then 5 characters from
// utilrand's alphabet), drawn from a seeded generator so that the same input gives the same names.
import {createHash} from 'node:crypto'

import {GENERATED_BASE_LENGTH, GENERATED_SUFFIX_LENGTH} from '../reconcile/create.js'

/** k8s.io/apimachinery/pkg/util/rand: consonants and digits, no vowels (no words), no 0/1/3 (look-alikes). */
export const NAME_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789'

/** A deterministic stream of values: SHA-256 of `seed/counter`, consumed 4 bytes at a time. */
export class SeededRandom {
  private counter = 0
  private block = Buffer.alloc(0)
  private offset = 0

  constructor(private readonly seed: string) {}

  /** A uniform integer in [0, n), n ≤ 2^16 (rejection sampling keeps it unbiased). */
  int(n: number): number {
    const limit = Math.floor(0x100000000 / n) * n
    for (;;) {
      const v = this.uint32()
      if (v < limit) return v % n
    }
  }

  /** A random (version 4 shaped) UUID. */
  uuid(): string {
    const b = Buffer.alloc(16)
    for (let i = 0; i < 16; i += 4) b.writeUInt32BE(this.uint32(), i)
    b[6] = (b[6] & 0x0f) | 0x40
    b[8] = (b[8] & 0x3f) | 0x80
    const x = b.toString('hex')
    return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20, 32)}`
  }

  private uint32(): number {
    if (this.offset + 4 > this.block.length) {
      this.block = createHash('sha256').update(`${this.seed}/${this.counter++}`).digest()
      this.offset = 0
    }
    const v = this.block.readUInt32BE(this.offset)
    this.offset += 4
    return v
  }
}

/** simpleNameGenerator.GenerateName: the base cut to 58 characters, then 5 random characters. */
export function generateName(base: string, random: SeededRandom): string {
  let suffix = ''
  for (let i = 0; i < GENERATED_SUFFIX_LENGTH; i++) suffix += NAME_ALPHABET[random.int(NAME_ALPHABET.length)]
  return `${base.slice(0, GENERATED_BASE_LENGTH)}${suffix}`
}
