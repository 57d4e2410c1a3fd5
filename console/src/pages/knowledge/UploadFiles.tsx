import { useQueryClient } from "@tanstack/react-query";
import { type DragEvent, useId, useState } from "react";
import { knowledgeKeys } from "./knowledge-api.ts";
import { formatBytes } from "./knowledge-format.ts";
import {
  ACCEPTED_FILE_TYPES,
  inParallel,
  PARALLEL_UPLOADS,
  UploadError,
  uploadFile,
} from "./upload.ts";

type Upload = {
  key: number;
  name: string;
  size: number;
  loaded: number;
  state: "waiting" | "sending" | "uploaded" | "failed";
  error: string | null;
};

let nextKey = 0;

/**
 * The **Upload files** input and a drop zone around it: every file is sent on its own, at most
 * three at once, each with its progress bar and its outcome; the datasource list is read again
 * after each one.
 */
export function UploadFiles({ datastoreId }: { datastoreId: string }) {
  const inputId = useId();
  const hintId = useId();
  const queryClient = useQueryClient();
  const [uploads, setUploads] = useState<Upload[]>([]);
  const [dragging, setDragging] = useState(false);

  const update = (key: number, change: Partial<Upload>) =>
    setUploads((current) =>
      current.map((upload) => (upload.key === key ? { ...upload, ...change } : upload)),
    );

  const send = (files: File[]) => {
    if (files.length === 0) return;
    const batch = files.map((file) => ({ file, key: nextKey++ }));
    setUploads((current) => [
      ...current,
      ...batch.map(({ file, key }) => ({
        key,
        name: file.name,
        size: file.size,
        loaded: 0,
        state: "waiting" as const,
        error: null,
      })),
    ]);
    void inParallel(batch, PARALLEL_UPLOADS, async ({ file, key }) => {
      update(key, { state: "sending" });
      try {
        await uploadFile(datastoreId, file, (loaded) => update(key, { loaded }));
        update(key, { state: "uploaded", loaded: file.size });
      } catch (error) {
        update(key, {
          state: "failed",
          error: error instanceof UploadError ? error.message : String(error),
        });
      }
      await queryClient.invalidateQueries({ queryKey: knowledgeKeys.datasources(datastoreId) });
    });
  };

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    send([...event.dataTransfer.files]);
  };

  const finished = uploads.filter(
    (upload) => upload.state === "uploaded" || upload.state === "failed",
  );

  return (
    <section className="card knowledge-card">
      <h2>Add files</h2>
      {/* biome-ignore lint/a11y/noStaticElementInteractions: dropping is a pointer shortcut; the file input inside is the way for everyone */}
      <div
        className={dragging ? "drop-zone drop-zone-active" : "drop-zone"}
        onDragEnter={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragOver={(event) => {
          event.preventDefault();
          event.dataTransfer.dropEffect = "copy";
        }}
        onDragLeave={(event) => {
          if (!event.currentTarget.contains(event.relatedTarget as Node | null)) {
            setDragging(false);
          }
        }}
        onDrop={onDrop}
      >
        <label htmlFor={inputId}>Upload files</label>
        <input
          id={inputId}
          type="file"
          multiple
          accept={ACCEPTED_FILE_TYPES}
          aria-describedby={hintId}
          onChange={(event) => {
            send([...(event.target.files ?? [])]);
            // The same file can be chosen again (after fixing it, or to send a new version).
            event.target.value = "";
          }}
        />
        <p className="field-hint" id={hintId}>
          Or drop files here. PDF, Word (.docx), PowerPoint (.pptx), Excel (.xlsx), CSV, JSON,
          Markdown and plain text; each file becomes a datasource and is indexed in the background.
        </p>
      </div>
      {uploads.length > 0 && (
        <>
          <ul className="upload-list" aria-live="polite">
            {uploads.map((upload) => (
              <li key={upload.key} className="upload">
                <span className="upload-name">{upload.name}</span>
                <span className="upload-size muted">{formatBytes(upload.size)}</span>
                <progress
                  aria-label={upload.name}
                  max={upload.size || 1}
                  value={upload.state === "failed" ? 0 : upload.loaded}
                />
                <UploadOutcome upload={upload} />
              </li>
            ))}
          </ul>
          {finished.length === uploads.length && (
            <button type="button" className="button" onClick={() => setUploads([])}>
              Clear the list
            </button>
          )}
        </>
      )}
    </section>
  );
}

function UploadOutcome({ upload }: { upload: Upload }) {
  switch (upload.state) {
    case "waiting":
      return <span className="upload-outcome muted">waiting</span>;
    case "sending":
      return <span className="upload-outcome muted">sending</span>;
    case "uploaded":
      return <span className="upload-outcome upload-ok">uploaded</span>;
    case "failed":
      return <span className="upload-outcome upload-failed">{upload.error}</span>;
  }
}
