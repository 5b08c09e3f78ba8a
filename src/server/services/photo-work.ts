// The marketplace photos' share of the process: sharp's work runs on libuv's thread pool (4 threads
// by default), the pool every request's file reads and zlib share too, so the process makes only
// so many photos at once.

/**
 * Holders of marketplace photo work at once in one process: a kit being built (it makes its photos
 * one at a time, services/marketplace-kit.ts) or one public link's photo being rendered
 * (services/marketplace-photos.ts). One more is refused at once (503 with Retry-After), not queued:
 * a kit holds its place for as long as its download takes.
 */
export const PHOTO_WORK_AT_ONCE = 2;

let held = 0;

/** A place in the process's photo work, and how to give it back (once); null when all are taken. */
export function takePhotoWork(): (() => void) | null {
  if (held >= PHOTO_WORK_AT_ONCE) return null;
  held += 1;
  let given = false;
  return () => {
    if (given) return;
    given = true;
    held -= 1;
  };
}
