import { describe, expect, test } from "vitest";
import { circlesOf, type ImportEdge, importsOf } from "./import-graph.ts";

/**
 * The layer table of docs/architecture.md, as code: what each layer of src/ may import. A layer
 * is a folder of src/ (main.ts is one of its own); `types` are imported for their types only.
 */
type Layer = {
  imports: readonly string[];
  types?: readonly string[];
  /** Imports of other layers allowed file by file, with the reason the table gives. */
  also?: (edge: ImportEdge) => boolean;
  /** Imports of allowed layers that are still refused. */
  never?: (edge: ImportEdge) => boolean;
};

const ALL = ["cli", "app", "http", "domain", "retrieval", "ingestion", "models", "jobs", "ops"];

/** The file-type detection and the document parser, which query and channels read files with. */
const INGESTION_ENTRY_POINTS = [
  "src/ingestion/loaders/index.ts",
  "src/ingestion/parser/document-parser.ts",
];

const LAYERS: Record<string, Layer> = {
  "main.ts": { imports: ["cli"] },
  // The CLI validates its options with the API's own request contracts, before any database
  // opens, and reaches everything else through the services the composition root makes.
  cli: {
    imports: ["app", "config", "lib"],
    also: (edge) => /^src\/domain\/[^/]+\/[^/]+-request\.ts$/.test(edge.to),
  },
  app: { imports: [...ALL, "config", "db", "lib"] },
  http: {
    imports: ["domain", "lib", "models", "ops"],
    never: (edge) => edge.to.endsWith("-repo.ts"),
  },
  domain: {
    imports: ["domain", "db", "models", "lib"],
    types: ["config", "jobs", "ops"],
    also: (edge) =>
      (edge.from.startsWith("src/domain/knowledge/") &&
        /^src\/(retrieval|ingestion)\//.test(edge.to)) ||
      (/^src\/domain\/(query|channels)\//.test(edge.from) &&
        INGESTION_ENTRY_POINTS.includes(edge.to)),
  },
  retrieval: { imports: ["db"] },
  ingestion: { imports: ["lib"] },
  models: { imports: [], types: ["lib"] },
  jobs: { imports: ["config", "db", "lib"], types: ["ops"] },
  ops: { imports: ["db", "models"] },
  config: { imports: ["lib", "models"] },
  db: {
    imports: [],
    types: ["lib"],
    // The embedded database's turns take the answers worker threads have posted.
    also: (edge) =>
      edge.from === "src/db/background-work.ts" && edge.to === "src/lib/thread-pool.ts",
  },
  lib: { imports: [] },
};

const layerOf = (file: string) => {
  const [, folder] = file.split("/");
  return folder === "main.ts" ? "main.ts" : folder!;
};

/** The imports that break the table, each as "from -> to". */
function breaksOf(edges: readonly ImportEdge[]): string[] {
  return edges
    .filter((edge) => {
      const [from, to] = [layerOf(edge.from), layerOf(edge.to)];
      const layer = LAYERS[from];
      if (!layer) return true;
      if (layer.never?.(edge)) return true;
      if (from === to && from !== "domain") return false;
      if (layer.imports.includes(to)) return false;
      if (edge.typeOnly && layer.types?.includes(to)) return false;
      return !layer.also?.(edge);
    })
    .map((edge) => `${edge.from} -> ${edge.to}${edge.typeOnly ? " (types)" : ""}`);
}

describe("the layers of src/", () => {
  const edges = importsOf(process.cwd());

  test("import only what the table of docs/architecture.md allows", () => {
    expect(edges.length).toBeGreaterThan(1_000);
    expect(breaksOf(edges)).toEqual([]);
  });

  test("hold no circle of imports, not even of types", () => {
    expect(circlesOf(edges)).toEqual([]);
  });

  test("are told apart: a wrong import is caught", () => {
    const wrong: ImportEdge[] = [
      { from: "src/http/routes/x/x-routes.ts", to: "src/db/schema/index.ts", typeOnly: false },
      { from: "src/http/routes/x/x-routes.ts", to: "src/domain/x/x-repo.ts", typeOnly: true },
      { from: "src/models/x.ts", to: "src/retrieval/passage.ts", typeOnly: true },
      { from: "src/cli/x-commands.ts", to: "src/domain/x/x-service.ts", typeOnly: false },
      { from: "src/domain/query/x.ts", to: "src/ingestion/splitter.ts", typeOnly: false },
      { from: "src/domain/x/x.ts", to: "src/jobs/job-queue.ts", typeOnly: false },
    ];
    expect(breaksOf(wrong)).toHaveLength(wrong.length);
    const allowed: ImportEdge[] = [
      { from: "src/cli/x-commands.ts", to: "src/domain/x/x-request.ts", typeOnly: false },
      { from: "src/domain/x/x.ts", to: "src/jobs/job-queue.ts", typeOnly: true },
      { from: "src/domain/knowledge/x.ts", to: "src/retrieval/hybrid-search.ts", typeOnly: false },
    ];
    expect(breaksOf(allowed)).toEqual([]);
    expect(
      circlesOf([
        { from: "src/a.ts", to: "src/b.ts", typeOnly: false },
        { from: "src/b.ts", to: "src/a.ts", typeOnly: true },
      ]),
    ).toEqual([["src/a.ts", "src/b.ts"]]);
  });
});
