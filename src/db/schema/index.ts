export * from "./instance.ts";
export * from "./leads.ts";
export * from "./organizations.ts";
