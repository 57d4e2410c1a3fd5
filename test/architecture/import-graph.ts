import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

/** One relative import of a file of src/, resolved to the file it names. */
export type ImportEdge = {
  /** Both paths relative to the repository, e.g. src/http/sse.ts. */
  from: string;
  to: string;
  /** `import type`, or every name imported with `type`: erased when compiled. */
  typeOnly: boolean;
};

const IMPORT_OR_EXPORT_FROM =
  /(?:^|\n)\s*(?:import|export)\s+(type\s+)?([^;]*?)\s+from\s+"([^"]+)"/g;
const DYNAMIC_IMPORT = /\bimport\(\s*"([^"]+)"\s*\)/g;

function isTypeOnly(typeKeyword: string | undefined, names: string): boolean {
  if (typeKeyword) return true;
  const list = /^\{([\s\S]*)\}$/.exec(names.trim())?.[1];
  if (list === undefined) return false;
  const specifiers = list
    .split(",")
    .map((name) => name.trim())
    .filter((name) => name !== "");
  return specifiers.length > 0 && specifiers.every((name) => name.startsWith("type "));
}

function sourceFiles(root: string, folder: string): string[] {
  return readdirSync(path.join(root, folder), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.posix.join(folder, entry.name);
    if (entry.isDirectory()) return entry.name === "migrations" ? [] : sourceFiles(root, relative);
    return entry.name.endsWith(".ts") ? [relative] : [];
  });
}

/** The relative imports (static, re-exports and `import("…")`) of every .ts file under `folder`. */
export function importsOf(root: string, folder = "src"): ImportEdge[] {
  return sourceFiles(root, folder).flatMap((from) => {
    const text = readFileSync(path.join(root, from), "utf8");
    const named = [...text.matchAll(IMPORT_OR_EXPORT_FROM)].map((match) => ({
      specifier: match[3]!,
      typeOnly: isTypeOnly(match[1], match[2]!),
    }));
    const dynamic = [...text.matchAll(DYNAMIC_IMPORT)].map((match) => ({
      specifier: match[1]!,
      typeOnly: false,
    }));
    return [...named, ...dynamic]
      .filter(({ specifier }) => specifier.startsWith("."))
      .map(({ specifier, typeOnly }) => ({
        from,
        to: path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier)),
        typeOnly,
      }));
  });
}

/** Every circle of imports among the files, each once, as the files in import order. */
export function circlesOf(edges: readonly ImportEdge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const edge of edges) next.set(edge.from, [...(next.get(edge.from) ?? []), edge.to]);
  const circles: string[][] = [];
  const done = new Set<string>();
  const onPath: string[] = [];
  const visit = (file: string) => {
    const at = onPath.indexOf(file);
    if (at >= 0) {
      circles.push(onPath.slice(at));
      return;
    }
    if (done.has(file)) return;
    onPath.push(file);
    for (const target of next.get(file) ?? []) visit(target);
    onPath.pop();
    done.add(file);
  };
  for (const file of [...next.keys()].sort()) visit(file);
  return circles;
}
