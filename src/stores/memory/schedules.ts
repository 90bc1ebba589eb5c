/**
 * @module The reference ScheduleStore, in process. A claim runs synchronously between two awaits, so in one
 * process nothing interleaves with it: the memory store claims each occurrence once by construction.
 */
import {
  SCHEDULE_LIMITS,
  type Schedule,
  type ScheduleScope,
  type ScheduleStore,
  type ScheduleStoreOptions,
} from "../../ports/schedule-store.js";
import {
  checkedSchedule,
  keptOutcome,
  newScheduleId,
  occurrenceAfter,
  scheduleCapReached,
} from "../../ports/schedule-timing.js";

interface Kept {
  schedule: Schedule;
  /** The occurrence a holder claimed and has not completed. */
  claimed?: { fireAt: number; holder: string; leaseUntil: number };
}

const inScope = (scope: ScheduleScope, schedule: Schedule) =>
  schedule.tenantId === scope.tenantId &&
  (scope.principalId === undefined || schedule.principalId === scope.principalId);

const copy = (schedule: Schedule): Schedule => structuredClone(schedule);

export function createMemoryScheduleStore(options: ScheduleStoreOptions = {}): ScheduleStore {
  const maxSchedules = options.maxSchedules ?? SCHEDULE_LIMITS.perPrincipal;
  const minIntervalMs = options.minIntervalMs ?? SCHEDULE_LIMITS.minIntervalMs;
  const kept = new Map<string, Kept>();
  const find = (scope: ScheduleScope, id: string) => {
    const found = kept.get(id);
    return found && inScope(scope, found.schedule) ? found : undefined;
  };
  return {
    async create(owner, schedule) {
      const checked = checkedSchedule(schedule, minIntervalMs);
      const live = [...kept.values()].filter(
        ({ schedule: other }) =>
          inScope(owner, other) && (other.status === "active" || other.status === "paused"),
      ).length;
      if (live >= maxSchedules) throw scheduleCapReached(maxSchedules);
      const made: Schedule = {
        id: newScheduleId(),
        tenantId: owner.tenantId,
        principalId: owner.principalId,
        ...(owner.keyId === undefined ? {} : { keyId: owner.keyId }),
        action: checked.action,
        timing: checked.timing,
        status: "active",
        nextFireAt: checked.nextFireAt,
        fireCount: 0,
        createdAt: schedule.now,
      };
      kept.set(made.id, { schedule: made });
      return copy(made);
    },
    async get(scope, id) {
      const found = find(scope, id);
      return found && copy(found.schedule);
    },
    async list(scope, filter = {}) {
      return [...kept.values()]
        .map(({ schedule }) => schedule)
        .filter((schedule) => inScope(scope, schedule))
        .filter((schedule) => filter.status === undefined || schedule.status === filter.status)
        .sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : -1))
        .slice(0, SCHEDULE_LIMITS.listed)
        .map(copy);
    },
    async cancel(scope, id) {
      const found = find(scope, id);
      if (!found) return undefined;
      const { schedule } = found;
      if (schedule.status === "active" || schedule.status === "paused") {
        schedule.status = "cancelled";
        delete schedule.nextFireAt;
      }
      return copy(schedule);
    },
    async claimDue({ now, holder, leaseMs, limit }) {
      const due = [...kept.values()]
        .filter(({ schedule, claimed }) =>
          claimed
            ? claimed.leaseUntil <= now && schedule.status === "active"
            : schedule.status === "active" && schedule.nextFireAt !== undefined && schedule.nextFireAt <= now,
        )
        .sort((a, b) => fireAtOf(a) - fireAtOf(b))
        .slice(0, limit);
      return due.map((entry) => {
        const { schedule } = entry;
        if (entry.claimed) {
          // A lapsed claim: the same occurrence again, so its ids (and idempotency key) are the same.
          entry.claimed = { fireAt: entry.claimed.fireAt, holder, leaseUntil: now + leaseMs };
        } else {
          const fireAt = schedule.nextFireAt as number;
          entry.claimed = { fireAt, holder, leaseUntil: now + leaseMs };
          const next = occurrenceAfter(schedule.timing, fireAt, now, minIntervalMs);
          if (next === undefined) delete schedule.nextFireAt;
          else schedule.nextFireAt = next;
        }
        return { schedule: copy(schedule), fireAt: entry.claimed.fireAt };
      });
    },
    async complete({ tenantId, id, fireAt, holder, outcome, now, pause }) {
      const entry = kept.get(id);
      const claimed = entry?.claimed;
      if (
        !entry ||
        entry.schedule.tenantId !== tenantId ||
        claimed?.fireAt !== fireAt ||
        claimed.holder !== holder
      )
        return false;
      delete entry.claimed;
      const { schedule } = entry;
      schedule.fireCount++;
      schedule.lastFiredAt = now;
      schedule.lastOutcome = keptOutcome(outcome);
      if (schedule.status === "active" && (pause || schedule.nextFireAt === undefined)) {
        schedule.status = pause ? "paused" : "done";
        delete schedule.nextFireAt;
      }
      return true;
    },
  };
}

const fireAtOf = ({ schedule, claimed }: Kept) => claimed?.fireAt ?? schedule.nextFireAt ?? 0;
