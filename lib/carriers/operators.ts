import { z } from "zod";
import { operators } from "@/lib/model/operators";

export { operators, type Operator } from "@/lib/model/operators";
export const operatorSchema = z.enum(operators);
