// Browse, audit events and vending health (filled in as the pages land).
export const steps = [];
