// Access: principals, roles, grants, and what a principal then sees (filled in as the page lands).
export const steps = [];
