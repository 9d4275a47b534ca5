import { z } from "zod";

export const operators = ["econet", "netone", "telecel"] as const;
export const operatorSchema = z.enum(operators);
export type Operator = z.infer<typeof operatorSchema>;
