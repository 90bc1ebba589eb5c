/** @module The data tools read only their input: their environment is empty. */
import { toolFor } from "../toolkit/define-toolkit.js";

export type DataEnv = Record<string, never>;

export const dataTool = toolFor<DataEnv>();
