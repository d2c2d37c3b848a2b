// The service worker: the playground from its cache, so a second visit starts at once and
// works with the network off.
//
// `pegs web build` writes BUILD (a digest of everything the build holds) and FILES (each
// file of the site with a digest of its contents) into this file, so a new build is a new
// service worker: the browser installs it on the next visit, it caches the new build in a
// cache of its own, copying each file the old build had unchanged (the engine, typically)
// from the old cache rather than downloading it again, takes over, and deletes the old
// cache. Requests for the site's own files are answered from the cache, whatever their
// query (index.html?record=..., index.html?players=6...); anything else goes to the network.

const BUILD = "";
const FILES = {};

const SCOPE = new URL(self.registration.scope);
const PREFIX = `pegs-playground ${SCOPE.pathname} `;
const CACHE = PREFIX + BUILD;
const LIST = "__files.json"; // each cache's own FILES, to find unchanged files in it
const OLD_SNAPSHOTS = "pegs-playground engine"; // where older builds kept Python's snapshots

self.addEventListener("install", (event) => {
  event.waitUntil(fill().then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name.startsWith(PREFIX) && name !== CACHE) await caches.delete(name);
      }
      await dropOldSnapshots();
      await self.clients.claim();
    })(),
  );
});

/** Delete this site's snapshots of Python started that older builds kept (31 MB each: in Cache
 * Storage, then in the private file system's folder of the same name); the page no longer
 * runs Python. */
async function dropOldSnapshots() {
  if (await caches.has(OLD_SNAPSHOTS)) {
    const old = await caches.open(OLD_SNAPSHOTS);
    for (const request of await old.keys()) {
      if (request.url.startsWith(SCOPE.href)) await old.delete(request);
    }
    if ((await old.keys()).length === 0) await caches.delete(OLD_SNAPSHOTS);
  }
  try {
    const folder = await (await navigator.storage.getDirectory()).getDirectoryHandle(OLD_SNAPSHOTS);
    const names = [];
    for await (const name of folder.keys()) if (name.startsWith(`${encodeURIComponent(SCOPE.href)} `)) names.push(name);
    for (const name of names) await folder.removeEntry(name);
  } catch {
    // no such folder (or no private file system): nothing to delete
  }
}

self.addEventListener("fetch", (event) => {
  const { request } = event;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== SCOPE.origin || !url.pathname.startsWith(SCOPE.pathname)) return;
  const path = url.pathname.slice(SCOPE.pathname.length) || "index.html";
  if (!(path in FILES)) return;
  event.respondWith(fromCache(path, request));
});

async function fromCache(path, request) {
  const kept = await (await caches.open(CACHE)).match(where(path));
  if (!kept) return fetch(request);
  // A response keeps the address it was cached under; one asked for with a query gets a copy
  // without an address, so that the page or worker it is sees the query (its own location).
  return request.url === kept.url ? kept : new Response(kept.body, kept);
}

function where(path) {
  return new URL(path, SCOPE).href;
}

/** Put every file of this build in its cache: from an older cache if unchanged, else fetched
 * and checked against its digest (a server already holding another build fails the install,
 * which the next visit tries again). */
async function fill() {
  const cache = await caches.open(CACHE);
  const older = [];
  for (const name of await caches.keys()) {
    if (!name.startsWith(PREFIX) || name === CACHE) continue;
    const old = await caches.open(name);
    const list = await old.match(where(LIST));
    if (list) older.push({ cache: old, files: await list.json() });
  }
  await Promise.all(
    Object.entries(FILES).map(async ([path, digest]) => {
      if (await cache.match(where(path))) return;
      const same = older.find(({ files }) => files[path] === digest);
      const kept = same && (await same.cache.match(where(path)));
      const response = kept || (await fetch(where(path), { cache: "no-cache" }));
      if (!kept && (await digestOf(response.clone())) !== digest) throw new Error(`${path} is not this build's`);
      await cache.put(where(path), response);
    }),
  );
  await cache.put(where(LIST), new Response(JSON.stringify(FILES), { headers: { "Content-Type": "application/json" } }));
}

async function digestOf(response) {
  const digest = await crypto.subtle.digest("SHA-256", await response.arrayBuffer());
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, "0")).join("");
}
