import type { DriverDeps, RunDriver } from './run-driver.js';
import type { ClaimedRun } from './run-store.js';

/** What drives one claimed run: RunDriver, or a driver that follows the run where it was handed off. */
export interface RunDriving {
  drive(): Promise<void>;
  cancel(): void;
  detach(): void;
}

/**
 * Decides, when a run is claimed, whether it is handed off as a whole to another system (Tekton
 * on the environment's cluster, decision 037): answers the driver that follows it there, or null
 * for Slipway's own engine.
 */
export type RunHandOff = (run: ClaimedRun, deps: DriverDeps) => Promise<RunDriving | null>;

/**
 * A run's driver that asks `handOff` first, then drives through what it answers or through
 * `local`. A cancel or detach that comes while it asks reaches whichever drives.
 */
export function handOffOrDrive(
  run: ClaimedRun,
  deps: DriverDeps,
  local: RunDriver,
  handOff: RunHandOff,
): RunDriving {
  let chosen: RunDriving | undefined;
  let cancelled = false;
  let detached = false;
  return {
    async drive() {
      let other: RunDriving | null = null;
      try {
        other = await handOff(run, deps);
      } catch (error) {
        deps.onError(error, run.id);
      }
      chosen = other ?? local;
      if (detached) chosen.detach();
      else if (cancelled) chosen.cancel();
      return chosen.drive();
    },
    cancel() {
      cancelled = true;
      chosen?.cancel();
    },
    detach() {
      detached = true;
      (chosen ?? local).detach();
    },
  };
}
