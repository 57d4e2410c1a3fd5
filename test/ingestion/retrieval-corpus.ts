import { readdir, readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { type Chunk, type SplitterOptions, splitIntoChunks } from "../../src/ingestion/splitter.ts";

// The retrieval-quality corpus: 65 short Markdown documents about a made-up smart-home company,
// and questions that mostly paraphrase them, each with the ids (file names without ".md") of the
// documents that answer it. Used by the embedder choice (bench/embedder-choice.ts) and by the
// database-backed check of vector-only, full-text-only and hybrid retrieval.

const RETRIEVAL_FIXTURE_DIR = fileURLToPath(new URL("../fixtures/retrieval/", import.meta.url));

export type RetrievalDocument = {
  /** File name without ".md"; the ids questions refer to. */
  id: string;
  fileName: string;
  /** Text of the first "# " heading. */
  title: string;
  /** The whole Markdown file. */
  text: string;
};

export type RetrievalQuestion = { id: string; question: string; relevant: string[] };

export type RetrievalCorpus = { documents: RetrievalDocument[]; questions: RetrievalQuestion[] };

export type CorpusChunk = Chunk & { documentId: string };

/** Reads the corpus and the questions, checking that every question points at real documents. */
export async function loadRetrievalCorpus(): Promise<RetrievalCorpus> {
  const corpusDir = `${RETRIEVAL_FIXTURE_DIR}corpus/`;
  const fileNames = (await readdir(corpusDir)).filter((name) => name.endsWith(".md")).sort();
  const documents = await Promise.all(
    fileNames.map(async (fileName): Promise<RetrievalDocument> => {
      const text = await readFile(`${corpusDir}${fileName}`, "utf8");
      const title = /^# (.+)$/m.exec(text)?.[1]?.trim() ?? fileName;
      return { id: fileName.slice(0, -".md".length), fileName, title, text };
    }),
  );
  const questions = JSON.parse(
    await readFile(`${RETRIEVAL_FIXTURE_DIR}questions.json`, "utf8"),
  ) as RetrievalQuestion[];
  const known = new Set(documents.map((document) => document.id));
  for (const question of questions) {
    const unknown = question.relevant.filter((id) => !known.has(id));
    if (unknown.length > 0 || question.relevant.length === 0) {
      throw new Error(`Question ${question.id} refers to unknown documents: ${unknown.join(", ")}`);
    }
  }
  return { documents, questions };
}

/** Splits every document as one section, tagging each chunk with its document id. */
export function chunkCorpus(
  documents: RetrievalDocument[],
  options?: SplitterOptions,
): CorpusChunk[] {
  const chunks = splitIntoChunks(
    documents.map((document) => ({ text: document.text, metadata: { documentId: document.id } })),
    options,
  );
  return chunks.map((chunk) => ({ ...chunk, documentId: documents[chunk.sectionIndex]!.id }));
}
