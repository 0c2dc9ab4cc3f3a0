// Rowkey's offline cache. The app shell (index.html and the hashed files it names) is cached
// under a name derived from index.html, so a new build gets a new cache and the old one goes.
// Pages are fetched network-first (a new build shows as soon as it is online); the hashed
// files are served from the cache first.
const PREFIX = 'rowkey-shell-';
const scope = () => self.registration.scope;
// The build's file names: `name-HASH.ext` or `name-HASH_bg.wasm.lzma`, HASH a number in hex
// (its leading zeros left out).
const HASHED = /-[0-9a-f]{8,16}(?:_bg)?\.[a-z.]+$/;

async function versionOf(html) {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(html));
  return Array.from(new Uint8Array(digest).slice(0, 8), (b) => b.toString(16).padStart(2, '0')).join('');
}

// Caches index.html and every relative file it names; drops older shells.
async function refresh(response) {
  const html = await response.clone().text();
  const name = PREFIX + (await versionOf(html));
  const old = (await caches.keys()).filter((k) => k.startsWith(PREFIX) && k !== name);
  if (old.length === 0 && (await caches.has(name))) return;
  const cache = await caches.open(name);
  const files = [...html.matchAll(/["'](\.\/[^"']+\.(?:js|wasm|lzma|css|svg|png))["']/g)].map((m) => new URL(m[1], scope()).href);
  // A file whose name carries its content's hash is the same bytes wherever it comes from: the
  // copy the page has just downloaded is taken from the browser's HTTP cache (even one the
  // server gave no lifetime), not downloaded a second time. Other files are asked of the server.
  await Promise.all([...new Set(files)].map(async (url) => {
    const response = await fetch(url, { cache: HASHED.test(url) ? 'force-cache' : 'default' });
    if (!response.ok) throw new TypeError(`${url}: ${response.status}`);
    await cache.put(url, response);
  }));
  await cache.put(scope(), response.clone());
  await cache.put(new URL('index.html', scope()).href, response.clone());
  await Promise.all(old.map((k) => caches.delete(k)));
}

self.addEventListener('install', (event) => {
  event.waitUntil(fetch(new Request(scope(), { cache: 'no-cache' })).then(refresh).then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET' || !request.url.startsWith(scope())) return;
  if (request.mode === 'navigate') {
    event.respondWith(
      fetch(request)
        .then((response) => {
          if (response.ok) event.waitUntil(refresh(response.clone()).catch(() => {}));
          return response;
        })
        .catch(async () => (await caches.match(new URL('index.html', scope()).href)) || Response.error()),
    );
    return;
  }
  event.respondWith(caches.match(request).then((hit) => hit || fetch(request)));
});
