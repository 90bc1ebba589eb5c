/** @module toolreg/tools — the first-party toolkits and the default registry the CLI serves. */
import { ToolRegistry } from "../registry/registry.js";
import { type AttachmentToolDeps, attachmentTools } from "./attachments/index.js";
import { dataTools } from "./data/index.js";
import { type DemoToolDeps, demoTools } from "./demo/index.js";
import { type DocumentToolDeps, documentTools } from "./documents/index.js";
import { type FileToolDeps, fileTools } from "./files/index.js";
import { type GeneralToolDeps, generalTools } from "./general/index.js";
import { type GenerateToolDeps, generateTools } from "./generate/index.js";
import { humanTools } from "./human/index.js";
import { type KnowledgeToolDeps, knowledgeTools } from "./knowledge/index.js";
import { type MemoryToolDeps, memoryTools } from "./memory/index.js";
import { type ScheduleToolDeps, scheduleTools } from "./schedules/index.js";
import { type ShellToolDeps, shellTools } from "./shell/index.js";
import { type SkillToolDeps, skillTools } from "./skills/index.js";
import { type SqlToolDeps, sqlTools } from "./sql/index.js";
import { type TodoToolDeps, todoTools } from "./todo/index.js";
import { type WebToolDeps, webTools } from "./web/index.js";

export { type Artifact, type ArtifactStore, createFileArtifactStore } from "../artifacts/index.js";
export { type AttachmentToolDeps, attachmentsToolkit, attachmentTools } from "./attachments/index.js";
export {
  type AudioConfig,
  AudioConfigSchema,
  audioToolkit,
  createEspeakSpeechProvider,
  createOpenAiSpeechProvider,
  createOpenAiTranscriptionProvider,
  type SpeechProvider,
  type TranscriptionProvider,
} from "./audio/index.js";
export { dataTools } from "./data/index.js";
export { dataToolkit } from "./data/toolkit.js";
export { type DemoToolDeps, demoTools, openDemoDatabase } from "./demo/index.js";
export { demoToolkit } from "./demo/toolkit.js";
export { type DocumentToolDeps, documentsToolkit, documentTools } from "./documents/index.js";
export { type FileToolDeps, fileTools } from "./files/index.js";
export { filesToolkit } from "./files/toolkit.js";
export {
  fixedTimeSource,
  type GeneralToolDeps,
  generalTools,
  systemTimeSource,
  type TimeSource,
} from "./general/index.js";
export { generalToolkit } from "./general/toolkit.js";
export { type GenerateToolDeps, generateTools } from "./generate/index.js";
export { generateToolkit } from "./generate/toolkit.js";
export { humanToolkit, humanTools } from "./human/index.js";
export { type KnowledgeToolDeps, knowledgeToolkit, knowledgeTools } from "./knowledge/index.js";
export { type MemoryToolDeps, memoryToolkit, memoryTools } from "./memory/index.js";
export {
  type ScheduleToolDeps,
  schedulesToolkit,
  scheduleTools,
  seamScheduleTargets,
} from "./schedules/index.js";
export { searchToolkit } from "./search/toolkit.js";
export { describeSandbox, detectSandbox, type ShellToolDeps, shellTools } from "./shell/index.js";
export { shellToolkit } from "./shell/toolkit.js";
export { type SkillToolDeps, skillsToolkit, skillTools } from "./skills/index.js";
export type { SqlDialect, SqlParam, SqlReader, SqlToolDeps, SqlWriter } from "./sql/index.js";
export { sqlTools } from "./sql/index.js";
export { sqlToolkit } from "./sql/toolkit.js";
export { renderTodoList, type TodoToolDeps, todoToolkit, todoTools } from "./todo/index.js";
export { type AnyToolkit, BUILT_IN_TOOLKITS, loadToolkit, VENDOR_TOOLKIT_PACKAGES } from "./toolkits.js";
export { type WebToolDeps, webTools } from "./web/index.js";
export { webToolkit } from "./web/toolkit.js";

/** Every toolkit's dependencies: a tool exists exactly when what it needs is given. */
export type DefaultToolDeps = AttachmentToolDeps &
  DocumentToolDeps &
  GeneralToolDeps &
  WebToolDeps &
  FileToolDeps &
  SqlToolDeps &
  GenerateToolDeps &
  ShellToolDeps &
  DemoToolDeps &
  TodoToolDeps &
  MemoryToolDeps &
  ScheduleToolDeps &
  KnowledgeToolDeps &
  SkillToolDeps;

/**
 * The registry of every first-party toolkit whose dependencies are met, in a fixed order. The meta-tools
 * (find_tools, execute_tool …) belong to the catalogue they search: a host adds them (`toolreg/catalog`).
 */
export function createDefaultRegistry(deps: DefaultToolDeps = {}): ToolRegistry {
  return new ToolRegistry([
    ...generalTools(deps),
    ...webTools(deps),
    ...dataTools(deps),
    ...fileTools(deps),
    ...generateTools(deps),
    ...sqlTools(deps),
    ...shellTools(deps),
    ...demoTools(deps),
    ...todoTools(deps),
    ...memoryTools(deps),
    ...scheduleTools(deps),
    ...knowledgeTools(deps),
    ...humanTools(deps),
    ...attachmentTools(deps),
    ...documentTools(deps),
    ...skillTools(deps),
  ]);
}
