import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { VectorMatrix } from "./vector-matrix.js";

function cosine(left: readonly number[], right: readonly number[]): number {
  let dot = 0;
  let leftNorm = 0;
  let rightNorm = 0;
  for (let i = 0; i < left.length; i++) {
    dot += (left[i] as number) * (right[i] as number);
    leftNorm += (left[i] as number) ** 2;
    rightNorm += (right[i] as number) ** 2;
  }
  return leftNorm === 0 || rightNorm === 0 ? 0 : dot / Math.sqrt(leftNorm * rightNorm);
}

describe("VectorMatrix", () => {
  it("gives every row's cosine with a query, as plain arithmetic does, whatever the length (property)", () => {
    // Magnitudes a provider gives: a square that underflows says nothing about a ranking.
    const number = fc
      .double({ min: -100, max: 100, noNaN: true })
      .map((value) => (Math.abs(value) < 1e-30 ? 0 : value));
    const matrix = fc.integer({ min: 0, max: 70 }).chain((dimensions) =>
      fc.record({
        dimensions: fc.constant(dimensions),
        rows: fc.array(fc.array(number, { minLength: dimensions, maxLength: dimensions }), { maxLength: 90 }),
        query: fc.array(number, { minLength: dimensions, maxLength: dimensions }),
      }),
    );
    fc.assert(
      fc.property(matrix, ({ dimensions, rows, query }) => {
        const vectors = new VectorMatrix(dimensions);
        for (const [index, row] of rows.entries()) vectors.set(index, row);
        const cosines = Array.from(vectors.cosines(query));
        expect(cosines.length).toBeGreaterThanOrEqual(rows.length);
        for (const [index, row] of rows.entries()) expect(cosines[index]).toBeCloseTo(cosine(query, row), 4);
        // Rows never set read as zeros.
        expect(cosines.slice(rows.length).every((value) => value === 0)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it("keeps its rows as it grows, across the memory the queries used", () => {
    const vectors = new VectorMatrix(20);
    const row = (index: number) => Array.from({ length: 20 }, (_, i) => (i === index % 20 ? 1 : 0.01));
    for (let index = 0; index < 5_000; index++) {
      vectors.set(index, row(index));
      // A query between sets leaves its numbers where the next rows will go.
      if (index % 997 === 0) vectors.cosines(row(3));
    }
    const cosines = vectors.cosines(row(7));
    for (const index of [7, 27, 4_987]) expect(cosines[index]).toBeCloseTo(1, 5);
    expect(cosines[8]).toBeCloseTo(cosine(row(7), row(8)), 5);
    // Only the rows asked for: a matrix grows by doubling, and a search wants the ones in use.
    const first = vectors.cosines(row(7), 100);
    expect(first).toHaveLength(100);
    expect(first[27]).toBeCloseTo(1, 5);
  });

  it("reads a cleared row, a vector of zeros or one with NaN or an infinity as close to nothing", () => {
    const vectors = new VectorMatrix(3);
    vectors.set(0, [1, 0, 0]);
    vectors.set(1, [Number.NaN, 1, 0]);
    vectors.set(2, [Number.POSITIVE_INFINITY, 0, 0]);
    vectors.set(3, [0, 0, 0]);
    vectors.set(4, [1, 1, 0]);
    vectors.clear(4);
    expect(Array.from(vectors.cosines([2, 0, 0])).slice(0, 5)).toEqual([1, 0, 0, 0, 0]);
    expect(Array.from(vectors.cosines([Number.NaN, 0, 0])).slice(0, 5)).toEqual([0, 0, 0, 0, 0]);
  });

  it("keeps the direction of a vector of very large or very small numbers", () => {
    const vectors = new VectorMatrix(2);
    vectors.set(0, [1e200, 1e200]);
    vectors.set(1, [1e-200, 0]);
    vectors.set(2, [5e-324, 5e-324]);
    const cosines = vectors.cosines([1, 1]);
    expect(cosines[0]).toBeCloseTo(1, 5);
    expect(cosines[1]).toBeCloseTo(Math.SQRT1_2, 5);
    expect(cosines[2]).toBeCloseTo(1, 5);
  });

  it("refuses a vector or a query of another length, a row that is not a whole number, and such a length", () => {
    const vectors = new VectorMatrix(4);
    expect(() => vectors.set(1.5, [1, 2, 3, 4])).toThrow("a row is a whole number of 0 or more, not 1.5");
    expect(() => vectors.clear(-1)).toThrow(RangeError);
    expect(() => vectors.set(0, [1, 2, 3])).toThrow("a vector of 3 numbers in a matrix of 4");
    expect(() => vectors.cosines([1, 2, 3, 4, 5])).toThrow("a query of 5 numbers for a matrix of 4");
    expect(() => new VectorMatrix(1.5)).toThrow(RangeError);
  });
});
