import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath, pathToFileURL } from "node:url";

/**
 * The tests' fake OpenAI server (zero latency unless scripted) in a child process, so its work
 * does not count as the service's; `url` is its base URL for OPENAI_BASE_URL, key `sk-bench`.
 */
export async function startModelProcess(): Promise<{ url: string; process: ChildProcess }> {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", fileURLToPath(import.meta.url), "--serve-fake-model"],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.once("data", (chunk: Buffer) => resolve(chunk.toString().trim()));
    child.once("exit", (code) => reject(new Error(`fake model exited with ${code}`)));
  });
  return { url, process: child };
}

async function serveFakeModel(): Promise<void> {
  const { startFakeOpenAI } = await import("../../test/fakes/openai-server.ts");
  const fake = await startFakeOpenAI({ apiKey: "sk-bench" });
  // The recorder would otherwise keep every request of the run in memory.
  setInterval(() => {
    fake.requests.length = 0;
  }, 200).unref();
  process.stdout.write(`${fake.url}\n`);
}

if (
  process.argv[1] &&
  import.meta.url === pathToFileURL(process.argv[1]).href &&
  process.argv.includes("--serve-fake-model")
) {
  await serveFakeModel();
}
