/**
 * A route's own hooks as a list, so an `onRoute` hook can add one to the routes that need it and
 * leave every other request without it (Fastify takes one hook or an array there).
 */
export const hooksOf = <Hook>(hooks: Hook | Hook[] | undefined): Hook[] => (hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks]);
