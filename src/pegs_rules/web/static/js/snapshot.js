// Where the engine's worker keeps the memory snapshot of the engine started (Pyodide's, with
// pegs_rules imported and warmed up): the origin's private file system, read and written
// through a synchronous access handle, the fastest storage a worker has (in Chromium with a
// profile on disk, a 31 MB snapshot reads in about a third of the time Cache Storage takes).
//
// One folder, FOLDER, holds every playground's snapshots; a file is named for its site (the
// playground's address) and its engine (a digest of runtime and wheel: a snapshot fits no
// other) and ends with its length in bytes, so that a file whose writing was cut short is
// never read. A browser without the private file system keeps no snapshot: every visit
// starts Python anew.

const FOLDER = "pegs-playground engine";

/** The snapshot store of one site's engine. */
export class SnapshotStore {
  /** @param {string} site the playground's address; @param {string} engine its engine's digest */
  constructor(site, engine) {
    this.prefix = `${encodeURIComponent(site)} `;
    this.stem = `${this.prefix}${engine} `;
    this.usable = Boolean(engine) && typeof navigator.storage?.getDirectory === "function";
  }

  /** The kept snapshot, or null (none, none complete, or no storage). */
  async read() {
    if (!this.usable) return null;
    try {
      const folder = await this.folder();
      for await (const [name, entry] of folder.entries()) {
        if (!name.startsWith(this.stem)) continue;
        const handle = await entry.createSyncAccessHandle();
        try {
          const size = handle.getSize();
          if (String(size) !== name.slice(this.stem.length)) return null;
          const bytes = new Uint8Array(size);
          return handle.read(bytes, { at: 0 }) === size ? bytes : null;
        } finally {
          handle.close();
        }
      }
    } catch {
      // no storage, or another tab holds the file: start anew
    }
    return null;
  }

  /** Keep `snapshot` (a Uint8Array), dropping this site's other snapshots. */
  async write(snapshot) {
    if (!this.usable) return;
    try {
      const folder = await this.folder();
      await this.drop(folder);
      const file = await folder.getFileHandle(`${this.stem}${snapshot.byteLength}`, { create: true });
      const handle = await file.createSyncAccessHandle();
      try {
        handle.truncate(0);
        handle.write(snapshot, { at: 0 });
        handle.flush();
      } finally {
        handle.close();
      }
    } catch {
      // no room, or no storage: the next visit starts Python anew
    }
  }

  /** Forget this site's snapshots (one that could not be restored, say). */
  async clear() {
    if (!this.usable) return;
    try {
      await this.drop(await this.folder());
    } catch {
      // nothing to forget
    }
  }

  async folder() {
    const root = await navigator.storage.getDirectory();
    return root.getDirectoryHandle(FOLDER, { create: true });
  }

  async drop(folder) {
    const names = [];
    for await (const name of folder.keys()) if (name.startsWith(this.prefix)) names.push(name);
    for (const name of names) await folder.removeEntry(name);
  }
}
