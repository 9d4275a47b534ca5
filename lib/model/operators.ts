// The carriers a message can go to, by name.
export const operators = ["econet", "netone", "telecel"] as const;
export type Operator = (typeof operators)[number];
