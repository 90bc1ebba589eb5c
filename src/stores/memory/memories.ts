/**
 * @module The reference MemoryStore, in process: one map per owner, so a lookup starts from the owner and can
 * reach nothing else. Search counts the query's words a memory holds (accents folded, no stemming).
 */
import type { Memory, MemoryOwner, MemoryStore } from "../../ports/memory-store.js";
import { MEMORY_LIMITS } from "../../ports/memory-store.js";
import {
  decodeCursor,
  encodeCursor,
  foldedWord,
  newMemoryId,
  queryWords,
  textTooLarge,
  wordsOf,
} from "../../ports/memory-words.js";

export interface MemoryMemoryStoreOptions {
  /** Default `MEMORY_LIMITS.memoriesPerPrincipal`; tests lower it. */
  maxMemories?: number;
}

const newestFirst = (a: Memory, b: Memory) =>
  b.createdAt - a.createdAt || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

export function createMemoryMemoryStore(options: MemoryMemoryStoreOptions = {}): MemoryStore {
  const maxMemories = options.maxMemories ?? MEMORY_LIMITS.memoriesPerPrincipal;
  // Keyed by the owner pair as JSON, so no tenant or principal id can be crafted to reach another's entry.
  const owners = new Map<string, Map<string, Memory>>();
  const of = (owner: MemoryOwner) => owners.get(JSON.stringify([owner.tenantId, owner.principalId]));
  const copy = (memory: Memory): Memory => ({ ...memory, tags: [...memory.tags] });
  return {
    async save(owner, { text, tags = [], at }) {
      if (textTooLarge(text)) return { saved: false, reason: "too_large", limit: MEMORY_LIMITS.textBytes };
      const key = JSON.stringify([owner.tenantId, owner.principalId]);
      const kept = owners.get(key) ?? new Map<string, Memory>();
      if (kept.size >= maxMemories) return { saved: false, reason: "full", limit: maxMemories };
      const memory: Memory = { id: newMemoryId(), text, tags: [...tags], createdAt: at };
      kept.set(memory.id, memory);
      owners.set(key, kept);
      return { saved: true, memory: copy(memory) };
    },
    async search(owner, { query, limit }) {
      const wanted = queryWords(query).map(foldedWord);
      if (wanted.length === 0) return [];
      const scored = [...(of(owner)?.values() ?? [])].flatMap((memory) => {
        const held = new Set(wordsOf(`${memory.text} ${memory.tags.join(" ")}`).map(foldedWord));
        const score = wanted.filter((word) => held.has(word)).length;
        return score > 0 ? [{ memory, score }] : [];
      });
      scored.sort((a, b) => b.score - a.score || newestFirst(a.memory, b.memory));
      return scored.slice(0, Math.min(limit, MEMORY_LIMITS.searchResults)).map(({ memory }) => copy(memory));
    },
    async forget(owner, id) {
      return of(owner)?.delete(id) ?? false;
    },
    async list(owner, { limit, after }) {
      const from = after === undefined ? undefined : decodeCursor(after);
      const sorted = [...(of(owner)?.values() ?? [])].sort(newestFirst);
      const rest = from
        ? sorted.filter(
            (memory) =>
              memory.createdAt < from.createdAt ||
              (memory.createdAt === from.createdAt && memory.id < from.id),
          )
        : sorted;
      const size = Math.min(limit, MEMORY_LIMITS.listPage);
      const memories = rest.slice(0, size).map(copy);
      const last = memories[memories.length - 1];
      return rest.length > size && last ? { memories, next: encodeCursor(last) } : { memories };
    },
  };
}
