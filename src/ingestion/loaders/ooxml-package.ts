import { SaxesParser } from "saxes";
import { entryData, inflatedChunks, type ZipEntry } from "./zip-directory.ts";

// An OOXML part can be tens of megabytes of XML (a 9 MB DOCX held 95 MB of document.xml): held
// as one string and then as a tree it cost gigabytes. Parts are therefore read as a stream of
// SAX events, inflated and decoded a slice at a time, and each loader keeps only what it writes.

/** Receives a part's elements by local name ("w:p" → "p"): prefixes are conventional, not fixed. */
export type XmlVisitor = {
  open?(name: string, attributes: Readonly<Record<string, string>>): void;
  close?(name: string): void;
  text?(text: string): void;
};

export type Relationship = { target: string; type: string; external: boolean };

/** The parts of an archive already checked by `assertSafeArchive`. */
export type OoxmlPackage = {
  has(path: string): boolean;
  /** Streams a part through `visitor`; false when the archive has no such part. */
  read(path: string, visitor: XmlVisitor): Promise<boolean>;
  /** The relationships of a part ("" for the package's own), by id; targets resolved to part paths. */
  relationships(partPath: string): Promise<Map<string, Relationship>>;
};

export function openPackage(bytes: Uint8Array, entries: readonly ZipEntry[]): OoxmlPackage {
  const byName = new Map(entries.map((entry) => [entry.name, entry]));
  const read = async (path: string, visitor: XmlVisitor) => {
    const entry = byName.get(path);
    if (!entry) return false;
    await parseXml(decodedChunks(bytes, entry), visitor);
    return true;
  };
  return {
    has: (path) => byName.has(path),
    read,
    async relationships(partPath) {
      const slash = partPath.lastIndexOf("/");
      const folder = partPath.slice(0, Math.max(0, slash));
      const relsPath = `${folder === "" ? "" : `${folder}/`}_rels/${partPath.slice(slash + 1)}.rels`;
      const relationships = new Map<string, Relationship>();
      await read(relsPath, {
        open(name, attributes) {
          if (name !== "Relationship") return;
          const { Id: id, Target: target, Type: type, TargetMode: mode } = attributes;
          if (!id || !target) return;
          const external = mode === "External";
          relationships.set(id, {
            target: external ? target : resolvePartPath(folder, target),
            type: type ?? "",
            external,
          });
        },
      });
      return relationships;
    },
  };
}

/** An attribute by local name: `w:val` for "val", whatever the prefix. */
export function attributeOf(
  attributes: Readonly<Record<string, string>>,
  localName: string,
): string | undefined {
  for (const [name, value] of Object.entries(attributes)) {
    if (name === localName || name.endsWith(`:${localName}`)) return value;
  }
  return undefined;
}

async function parseXml(chunks: AsyncIterable<string>, visitor: XmlVisitor): Promise<void> {
  // No namespace processing (prefixes are stripped instead) and no line and column tracking: a
  // malformed part is reported as a corrupt document, without a position.
  const parser = new SaxesParser<{ xmlns: false; position: false }>({
    xmlns: false,
    position: false,
  });
  const { open, close, text } = visitor;
  if (open) parser.on("opentag", (tag) => open(localNameOf(tag.name), tag.attributes));
  if (close) parser.on("closetag", (tag) => close(localNameOf(tag.name)));
  if (text) {
    parser.on("text", text);
    parser.on("cdata", text);
  }
  for await (const chunk of chunks) parser.write(chunk);
  parser.close();
}

function localNameOf(name: string): string {
  return name.slice(name.indexOf(":") + 1);
}

async function* decodedChunks(bytes: Uint8Array, entry: ZipEntry): AsyncGenerator<string> {
  // Streaming decode: a character split between two chunks stays whole.
  const decoder = new TextDecoder();
  for await (const chunk of inflatedChunks(entryData(bytes, entry), entry.method)) {
    yield decoder.decode(chunk, { stream: true });
  }
  yield decoder.decode();
}

function resolvePartPath(folder: string, target: string): string {
  const segments = target.startsWith("/") ? [] : folder.split("/").filter(Boolean);
  for (const segment of target.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") segments.pop();
    else segments.push(segment);
  }
  return segments.join("/");
}
