/**
 * @module `VectorMatrix`: unit vectors as rows of one block of WebAssembly memory, and the dot product of
 * a query with every row at once in WebAssembly SIMD, four lanes at a time with four sums in flight. At
 * 10,000 tools of 512 dimensions that is 5 million multiply-adds a query: about 4 ms as JavaScript, well
 * under 1 ms here (bench:search's `hybrid_search_*`). Rows are padded with zeros to a multiple of 16
 * numbers, which changes no product.
 */

const PAGE_BYTES = 65_536;
/** Numbers per step of the kernel's loop: four vectors of four lanes. */
const STEP = 16;

export class VectorMatrix {
  readonly dimensions: number;
  /** Numbers per row in memory: the dimensions, padded. */
  readonly #stride: number;
  readonly #memory: WebAssembly.Memory;
  readonly #kernel: DotProducts;
  #capacity = 0;

  constructor(dimensions: number) {
    if (!Number.isInteger(dimensions) || dimensions < 0) {
      throw new RangeError(`a vector matrix needs a whole number of dimensions, not ${dimensions}`);
    }
    this.dimensions = dimensions;
    this.#stride = Math.ceil(dimensions / STEP) * STEP;
    this.#memory = new WebAssembly.Memory({ initial: 1 });
    kernelModule ??= new WebAssembly.Module(kernelBytes());
    const instance = new WebAssembly.Instance(kernelModule, { env: { memory: this.#memory } });
    this.#kernel = instance.exports.dots as DotProducts;
  }

  /** Stores `vector` scaled to unit length as row `row`; a vector of another length is refused. */
  set(row: number, vector: readonly number[]): void {
    checkRow(row);
    if (vector.length !== this.dimensions) {
      throw new RangeError(`a vector of ${vector.length} numbers in a matrix of ${this.dimensions}`);
    }
    this.#reserve(row + 1);
    this.#numbers().set(unitVector(vector), row * this.#stride);
  }

  /** Sets row `row` to zeros: it is as close to every query as nothing is. */
  clear(row: number): void {
    checkRow(row);
    if (row >= this.#capacity) return;
    this.#numbers().fill(0, row * this.#stride, (row + 1) * this.#stride);
  }

  /**
   * The cosine of `query` with each of the first `rows` rows (every row there is room for unless told; a
   * row never set reads as zeros), by row; a view of the matrix's memory that the next call (or a `set`
   * that needs more room) reuses, so read it before either. A query of zeros, NaN or an infinity has a
   * cosine of 0 with everything.
   */
  cosines(query: readonly number[], rows: number = this.#capacity): Float32Array {
    if (query.length !== this.dimensions) {
      throw new RangeError(`a query of ${query.length} numbers for a matrix of ${this.dimensions}`);
    }
    const count = Math.max(0, Math.min(Math.floor(rows), this.#capacity));
    const queryAt = this.#capacity * this.#stride;
    const outAt = queryAt + this.#stride;
    this.#grow((outAt + count) * 4);
    const numbers = this.#numbers();
    numbers.fill(0, queryAt, outAt);
    numbers.set(unitVector(query), queryAt);
    if (this.#stride > 0) this.#kernel(queryAt * 4, 0, count, this.#stride, outAt * 4);
    else numbers.fill(0, outAt, outAt + count);
    return new Float32Array(this.#memory.buffer, outAt * 4, count);
  }

  #reserve(rows: number): void {
    if (rows <= this.#capacity) return;
    const capacity = Math.max(rows, this.#capacity * 2, 64);
    this.#grow(capacity * this.#stride * 4);
    // Rows past the old capacity may hold an earlier query's numbers: a new row starts as zeros.
    this.#numbers().fill(0, this.#capacity * this.#stride, capacity * this.#stride);
    this.#capacity = capacity;
  }

  #grow(bytes: number): void {
    const missing = bytes - this.#memory.buffer.byteLength;
    if (missing > 0) this.#memory.grow(Math.ceil(missing / PAGE_BYTES));
  }

  // A fresh view each time: growing the memory detaches the buffer an older view was made on.
  #numbers(): Float32Array {
    return new Float32Array(this.#memory.buffer);
  }
}

function checkRow(row: number): void {
  if (!Number.isInteger(row) || row < 0)
    throw new RangeError(`a row is a whole number of 0 or more, not ${row}`);
}

/**
 * The vector scaled to unit length, so a dot product is the cosine; divided by its largest number first,
 * so a vector of very large or very small numbers keeps its direction instead of overflowing or vanishing
 * as it is squared. A vector of zeros, or with NaN or an infinity in it (a provider's fault), becomes
 * zeros: it says nothing, instead of making every score NaN.
 */
function unitVector(vector: readonly number[]): Float32Array {
  const unit = new Float32Array(vector.length);
  let largest = 0;
  for (const value of vector) largest = Math.max(largest, Math.abs(value));
  if (!(largest > 0 && Number.isFinite(largest))) return unit;
  let norm = 0;
  for (const value of vector) norm += (value / largest) ** 2;
  const length = Math.sqrt(norm);
  for (let i = 0; i < vector.length; i++) unit[i] = (vector[i] as number) / largest / length;
  return unit;
}

/** `(query, matrix, rows, stride, out)`, byte offsets and counts: out[r] = Σ query[i] · matrix[r][i]. */
type DotProducts = (query: number, matrix: number, rows: number, stride: number, out: number) => void;

/** Compiled once, on the first matrix; each matrix instantiates it over its own memory. */
let kernelModule: WebAssembly.Module | undefined;

// ---- the kernel, assembled ----------------------------------------------------------------------
//
// In the WebAssembly text format, with $q, $m and $out byte offsets and $stride a multiple of 16:
//
//   (func $dots (param $q i32) (param $m i32) (param $rows i32) (param $stride i32) (param $out i32)
//     (local $r i32) (local $i i32) (local $a v128) (local $b v128) (local $c v128) (local $d v128)
//     (loop $row (br_if $done (i32.ge_u (local.get $r) (local.get $rows)))
//       a = b = c = d = 0
//       (loop $step (br_if $summed (i32.ge_u (local.get $i) (local.get $stride)))
//         a += q[i..i+4] * m[i..i+4]; b += … [i+4..]; c += … [i+8..]; d += … [i+12..]
//         i += 16)
//       out[r] = lanes of (a + b) + (c + d), summed
//       m += stride * 4; out += 4; r += 1; i = 0))
//
// Assembled here rather than shipped as a binary, so what runs is the code that is read.

const I32 = 0x7f;
const V128 = 0x7b;
const op = {
  block: [0x02, 0x40],
  loop: [0x03, 0x40],
  end: [0x0b],
  br: (depth: number) => [0x0c, depth],
  brIf: (depth: number) => [0x0d, depth],
  get: (local: number) => [0x20, local],
  set: (local: number) => [0x21, local],
  i32: (value: number) => [0x41, ...signedLeb(value)],
  i32Add: [0x6a],
  i32GeU: [0x4f],
  i32Shl: [0x74],
  f32Add: [0x92],
  f32Store: [0x38, 0x02, 0x00],
  v128Load: (offset: number) => [0xfd, 0x00, 0x04, ...unsignedLeb(offset)],
  v128Zero: [0xfd, 0x0c, ...new Array<number>(16).fill(0)],
  f32x4Add: [0xfd, 0xe4, 0x01],
  f32x4Mul: [0xfd, 0xe6, 0x01],
  lane: (lane: number) => [0xfd, 0x1f, lane],
};

// Parameters, then locals, by index.
const [Q, M, ROWS, STRIDE, OUT, R, I, A, B, C, D] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10] as const;

function kernelBytes(): Uint8Array {
  const byteOffset = (base: number) => [
    ...op.get(base),
    ...op.get(I),
    ...op.i32(2),
    ...op.i32Shl,
    ...op.i32Add,
  ];
  const accumulate = (sum: number, lane: number) => [
    ...op.get(sum),
    ...byteOffset(Q),
    ...op.v128Load(lane * 16),
    ...byteOffset(M),
    ...op.v128Load(lane * 16),
    ...op.f32x4Mul,
    ...op.f32x4Add,
    ...op.set(sum),
  ];
  const body = [
    ...op.block,
    ...op.loop,
    ...op.get(R),
    ...op.get(ROWS),
    ...op.i32GeU,
    ...op.brIf(1),
    ...[A, B, C, D].flatMap((sum) => [...op.v128Zero, ...op.set(sum)]),
    ...op.i32(0),
    ...op.set(I),
    ...op.block,
    ...op.loop,
    ...op.get(I),
    ...op.get(STRIDE),
    ...op.i32GeU,
    ...op.brIf(1),
    ...[A, B, C, D].flatMap((sum, lane) => accumulate(sum, lane)),
    ...op.get(I),
    ...op.i32(STEP),
    ...op.i32Add,
    ...op.set(I),
    ...op.br(0),
    ...op.end,
    ...op.end,
    ...op.get(A),
    ...op.get(B),
    ...op.f32x4Add,
    ...op.get(C),
    ...op.get(D),
    ...op.f32x4Add,
    ...op.f32x4Add,
    ...op.set(A),
    ...op.get(OUT),
    ...op.get(A),
    ...op.lane(0),
    ...op.get(A),
    ...op.lane(1),
    ...op.f32Add,
    ...op.get(A),
    ...op.lane(2),
    ...op.get(A),
    ...op.lane(3),
    ...op.f32Add,
    ...op.f32Add,
    ...op.f32Store,
    ...[M, OUT].flatMap((pointer) => [
      ...op.get(pointer),
      ...(pointer === M ? [...op.get(STRIDE), ...op.i32(2), ...op.i32Shl] : op.i32(4)),
      ...op.i32Add,
      ...op.set(pointer),
    ]),
    ...op.get(R),
    ...op.i32(1),
    ...op.i32Add,
    ...op.set(R),
    ...op.br(0),
    ...op.end,
    ...op.end,
    ...op.end,
  ];
  const locals = vector([
    [2, I32],
    [4, V128],
  ]);
  const code = [...unsignedLeb(locals.length + body.length), ...locals, ...body];
  const name = (text: string) => [...unsignedLeb(text.length), ...new TextEncoder().encode(text)];
  return Uint8Array.from([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, vector([[0x60, ...vector([[I32], [I32], [I32], [I32], [I32]]), 0x00]])),
    ...section(2, vector([[...name("env"), ...name("memory"), 0x02, 0x00, 0x01]])),
    ...section(3, vector([[0x00]])),
    ...section(7, vector([[...name("dots"), 0x00, 0x00]])),
    ...section(10, vector([code])),
  ]);
}

function section(id: number, bytes: number[]): number[] {
  return [id, ...unsignedLeb(bytes.length), ...bytes];
}

function vector(items: number[][]): number[] {
  return [...unsignedLeb(items.length), ...items.flat()];
}

function unsignedLeb(value: number): number[] {
  const bytes: number[] = [];
  let rest = value >>> 0;
  do {
    const low = rest & 0x7f;
    rest >>>= 7;
    bytes.push(rest === 0 ? low : low | 0x80);
  } while (rest !== 0);
  return bytes;
}

function signedLeb(value: number): number[] {
  const bytes: number[] = [];
  let rest = value | 0;
  for (;;) {
    const low = rest & 0x7f;
    rest >>= 7;
    if ((rest === 0 && (low & 0x40) === 0) || (rest === -1 && (low & 0x40) !== 0)) {
      bytes.push(low);
      return bytes;
    }
    bytes.push(low | 0x80);
  }
}
