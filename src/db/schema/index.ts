export * from "./agents.ts";
export * from "./annotations.ts";
export * from "./billing.ts";
export * from "./conversations.ts";
export * from "./instance.ts";
export * from "./knowledge.ts";
export * from "./leads.ts";
export * from "./organizations.ts";
