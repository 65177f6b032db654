// Who the visitor is. Set from GET /api/me at start-up and after logging in or out.

const listeners = new Set();

export const session = {
  user: null,

  set(user) {
    this.user = user;
    for (const fn of listeners) fn(user);
  },

  onChange(fn) {
    listeners.add(fn);
    return () => listeners.delete(fn);
  },
};
