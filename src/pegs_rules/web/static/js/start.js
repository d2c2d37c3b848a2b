// As the page begins to load: start the rules engine that the page names (its
// <script id="engine">, which `pegs web build` writes), so that Python starts while the
// page's own modules load. A classic script, run from <head>, after that element.
//
// window.pegsEngine: { worker, early }: the engine's Web Worker (worker.js) and what it said
// before the page listened (local.js takes both over); null for a page that names no engine
// (a server's: its games are played there).
window.pegsEngine = (() => {
  const named = document.getElementById("engine");
  if (!named || location.protocol === "file:") return null;
  const { wheel, pyodide, download, engine } = JSON.parse(named.textContent);
  const base = document.baseURI;
  const url = new URL("js/worker.js", base);
  url.searchParams.set("wheel", new URL(wheel, base).href);
  url.searchParams.set("pyodide", new URL(pyodide, base).href);
  const sizes = Object.entries(download).map(([file, size]) => [new URL(file, base).href, size]);
  url.searchParams.set("download", JSON.stringify(Object.fromEntries(sizes)));
  url.searchParams.set("engine", engine);
  url.searchParams.set("site", new URL(".", base).href);
  const worker = new Worker(url, { type: "module" });
  const early = [];
  worker.onmessage = ({ data }) => early.push({ data });
  worker.onerror = (event) => {
    event.preventDefault();
    early.push({ failed: event.message || "the worker failed to load" });
  };
  return { worker, early };
})();
