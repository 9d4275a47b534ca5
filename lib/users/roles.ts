import { z } from "zod";

export const accountRoles = ["owner", "developer"] as const;
export const platformRoles = ["support", "admin"] as const;
export const roleSchema = z.enum([...accountRoles, ...platformRoles]);
export type Role = z.infer<typeof roleSchema>;

export function isPlatformRole(role: Role): boolean {
  return (platformRoles as readonly string[]).includes(role);
}
