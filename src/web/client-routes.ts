/**
 * The dashboard's pages, listed once: the server answers index.html at each of them
 * (plugin.ts), so a reload or a deep link works, and the client renders them (web/src/main.tsx).
 * It lives under src/ because the server must run from src/ alone (the Docker image holds no
 * web/src); plain TypeScript with no DOM, so Node imports it as it is and Vite bundles it.
 */
export const CLIENT_ROUTES = [
  { path: '/', public: true },
  { path: '/signup', public: true },
  { path: '/login', public: true },
  { path: '/pricing', public: true },
  { path: '/dashboard', public: false },
  { path: '/sites', public: false },
  { path: '/sites/:id', public: false },
  { path: '/discovery', public: false },
  { path: '/discovery/:id', public: false },
  { path: '/keys', public: false },
  { path: '/webhooks', public: false },
  { path: '/profile', public: false },
  { path: '/lint', public: false },
] as const;

export type ClientRoute = (typeof CLIENT_ROUTES)[number]['path'];

/** The page a location shows, with its `:id` when it has one; null when there is none. */
export function matchClientRoute(pathname: string): { route: ClientRoute; isPublic: boolean; id: string } | null {
  for (const route of CLIENT_ROUTES) {
    const [prefix, param] = route.path.split('/:');
    if (param === undefined) {
      if (pathname === prefix) return { route: route.path, isPublic: route.public, id: '' };
      continue;
    }
    const rest = pathname.startsWith(`${prefix}/`) ? pathname.slice(prefix.length + 1) : '';
    if (rest && !rest.includes('/')) return { route: route.path, isPublic: route.public, id: decodeURIComponent(rest) };
  }
  return null;
}
