/**
 * @module The turn, tool-call and tool-result markers of the common open-weight chat templates, as data:
 * each family's markers as its template writes them, with where they were read. The fence's patterns are
 * derived from these lists; a test neutralises every one of them.
 */

/** One family's markers, as its chat template or tokenizer writes them. */
export interface MarkerFamily {
  /** Where the markers were read. */
  readonly from: string;
  readonly markers: readonly string[];
}

/**
 * The markers, by family. `<|…|>` tokens are matched in general as well (any name), so a family's new token
 * is caught before it is listed here; tags (`<name>`), bracket tokens (`[NAME]`) and role words are matched
 * by the names listed. A marker's digits stand for any number (`<SPECIAL_10>`, `<extra_id_0>`), and the
 * name in `<function=NAME>` or `<invoke name="NAME">` for any name.
 */
export const CHAT_TEMPLATE_MARKERS = {
  chatml: {
    from: "ChatML, as Qwen 2/2.5/3, Hermes 2/3, Phi-4 and StepFun write it (Qwen/Qwen3 tokenizer_config.json; llama.cpp models/templates)",
    markers: ["<|im_start|>", "<|im_end|>", "<|im_sep|>", "<|endoftext|>"],
  },
  hermesQwen: {
    from: "Hermes 2 Pro / Hermes 3 and Qwen 2.5 / Qwen 3 tool calling (Qwen/Qwen3 tokenizer_config.json chat_template; NousResearch Hermes-Function-Calling)",
    markers: [
      "<tools>",
      "</tools>",
      "<tool_call>",
      "</tool_call>",
      "<tool_response>",
      "</tool_response>",
      "<think>",
      "</think>",
    ],
  },
  qwenCoderXml: {
    from: "Qwen3-Coder / Qwen3.5, StepFun and Seed-OSS XML calls (llama.cpp models/templates/StepFun3.7-Flash.jinja, ByteDance-Seed-OSS.jinja)",
    markers: [
      "<function=get_weather>",
      "</function>",
      "<parameter=city>",
      "</parameter>",
      "<seed:bos>",
      "<seed:eos>",
      "<seed:tool_call>",
      "</seed:tool_call>",
      "<seed:think>",
      "<seed:cot_budget_reflect>",
    ],
  },
  llama2: {
    from: "Llama 2 chat (Meta's llama repository, chat_completion) and sentencepiece specials",
    markers: ["<s>", "</s>", "<unk>", "<pad>", "[INST]", "[/INST]", "<<SYS>>", "<</SYS>>"],
  },
  llama3: {
    from: "Llama 3.1 / 3.2 / 3.3 (meta-llama Llama-3.1 tokenizer_config.json; llama-models prompt format: ipython role, <function=…> custom calls)",
    markers: [
      "<|begin_of_text|>",
      "<|end_of_text|>",
      "<|start_header_id|>ipython<|end_header_id|>",
      "<|eot_id|>",
      "<|eom_id|>",
      "<|python_tag|>",
      "<|finetune_right_pad_id|>",
      "<|reserved_special_token_0|>",
    ],
  },
  llama4: {
    from: "Llama 4 (meta-llama Llama-4-Scout chat_template.json)",
    markers: [
      "<|header_start|>",
      "<|header_end|>",
      "<|eot|>",
      "<|eom|>",
      "<|python_start|>",
      "<|python_end|>",
    ],
  },
  mistral: {
    from: "Mistral tokenizers v1–v13 (mistral-common src/mistral_common/tokens/tokenizers/base.py SpecialTokens, think.py)",
    markers: [
      "[INST]",
      "[/INST]",
      "[SYSTEM_PROMPT]",
      "[/SYSTEM_PROMPT]",
      "[AVAILABLE_TOOLS]",
      "[/AVAILABLE_TOOLS]",
      "[TOOL_CALLS]",
      "[TOOL_RESULTS]",
      "[/TOOL_RESULTS]",
      "[TOOL_CONTENT]",
      "[THINK]",
      "[/THINK]",
    ],
  },
  deepseek: {
    from: "DeepSeek V3 / R1 / V3.1 and V3.2's DSML (llama.cpp models/templates/deepseek-ai-DeepSeek-V3.1.jinja, DeepSeek-V3.2.jinja)",
    markers: [
      "<｜begin▁of▁sentence｜>",
      "<｜end▁of▁sentence｜>",
      "<｜User｜>",
      "<｜Assistant｜>",
      "<｜tool▁calls▁begin｜>",
      "<｜tool▁calls▁end｜>",
      "<｜tool▁call▁begin｜>",
      "<｜tool▁call▁end｜>",
      "<｜tool▁sep｜>",
      "<｜tool▁outputs▁begin｜>",
      "<｜tool▁outputs▁end｜>",
      "<｜tool▁output▁begin｜>",
      "<｜tool▁output▁end｜>",
      "<｜DSML｜function_calls>",
      '<｜DSML｜invoke name="get_weather">',
      '<｜DSML｜parameter name="city" string="true">',
      "</｜DSML｜invoke>",
      "<function_results>",
      "</function_results>",
      "<result>",
      "<functions>",
    ],
  },
  gemma: {
    from: "Gemma 2 / 3 and FunctionGemma (google/gemma-3 tokenizer_config.json; FunctionGemma's function-call tokens)",
    markers: [
      "<bos>",
      "<eos>",
      "<start_of_turn>",
      "<end_of_turn>",
      "<start_function_declaration>",
      "<end_function_declaration>",
      "<start_function_call>",
      "<end_function_call>",
      "<start_function_response>",
      "<end_function_response>",
      "<escape>",
    ],
  },
  gemma4: {
    from: "Gemma 4: tokens open with `<|` and close with `|>` on one side only (llama.cpp models/templates/gemma4.jinja)",
    markers: [
      "<|turn>",
      "<turn|>",
      "<|tool>",
      "<tool|>",
      "<|tool_call>",
      "<tool_call|>",
      "<|tool_response>",
      "<tool_response|>",
      "<|channel>",
      "<channel|>",
      "<|think|>",
      '<|"|>',
    ],
  },
  phi: {
    from: "Phi-3 / 3.5 / 4-mini (llama.cpp models/templates/llama-cpp-microsoft-Phi-4-mini-instruct.jinja)",
    markers: [
      "<|system|>",
      "<|user|>",
      "<|assistant|>",
      "<|end|>",
      "<|tool|>",
      "<|/tool|>",
      "<|tool_call|>",
      "<|/tool_call|>",
      "<|tool_calls|>",
      "<|/tool_calls|>",
      "<|tool_response|>",
    ],
  },
  commandR: {
    from: "Command R / R7B / A (llama.cpp models/templates/CohereForAI-c4ai-command-r7b-12-2024-tool_use.jinja)",
    markers: [
      "<BOS_TOKEN>",
      "<EOS_TOKEN>",
      "<|START_OF_TURN_TOKEN|>",
      "<|END_OF_TURN_TOKEN|>",
      "<|SYSTEM_TOKEN|>",
      "<|USER_TOKEN|>",
      "<|CHATBOT_TOKEN|>",
      "<|START_THINKING|>",
      "<|END_THINKING|>",
      "<|START_ACTION|>",
      "<|END_ACTION|>",
      "<|START_TOOL_RESULT|>",
      "<|END_TOOL_RESULT|>",
      "<|START_RESPONSE|>",
      "<|END_RESPONSE|>",
    ],
  },
  glm: {
    from: "GLM-4 / GLM-4.5 / 4.6 and ChatGLM (llama.cpp models/templates/glm_4_5.jinja)",
    markers: [
      "[gMASK]",
      "<sop>",
      "<eop>",
      "<|observation|>",
      "<arg_key>",
      "</arg_key>",
      "<arg_value>",
      "</arg_value>",
    ],
  },
  harmony: {
    from: "gpt-oss harmony format (openai/harmony)",
    markers: ["<|start|>", "<|message|>", "<|channel|>", "<|constrain|>", "<|return|>", "<|call|>"],
  },
  kimi: {
    from: "Kimi K2 (llama.cpp models/templates/moonshotai-Kimi-K2.jinja; its tool-call section tokens)",
    markers: [
      "<|im_system|>",
      "<|im_user|>",
      "<|im_assistant|>",
      "<|im_middle|>",
      "<|tool_calls_section_begin|>",
      "<|tool_calls_section_end|>",
      "<|tool_call_begin|>",
      "<|tool_call_argument_begin|>",
      "<|tool_call_end|>",
    ],
  },
  minimax: {
    from: "MiniMax-M2 (llama.cpp models/templates/unsloth-MiniMax-M2.jinja)",
    markers: [
      "]~!b[",
      "]~b]",
      "[e~[",
      "<minimax:tool_call>",
      "</minimax:tool_call>",
      '<invoke name="get_weather">',
      "</invoke>",
      '<parameter name="city">',
      "<response>",
      "</response>",
      "<tool>",
    ],
  },
  nemotron: {
    from: "NVIDIA Nemotron Nano 2 (llama.cpp models/templates/NVIDIA-Nemotron-Nano-v2.jinja) and Nemotron-4's <extra_id_N> turns",
    markers: [
      "<SPECIAL_10>",
      "<SPECIAL_11>",
      "<SPECIAL_12>",
      "<AVAILABLE_TOOLS>",
      "<TOOLCALL>",
      "</TOOLCALL>",
      "<TOOL_RESPONSE>",
      "</TOOL_RESPONSE>",
      "<extra_id_0>",
      "<extra_id_1>",
    ],
  },
  lfm: {
    from: "Liquid LFM2 (llama.cpp models/templates/llama-cpp-lfm2.jinja)",
    markers: [
      "<|tool_list_start|>",
      "<|tool_list_end|>",
      "<|tool_call_start|>",
      "<|tool_call_end|>",
      "<|tool_response_start|>",
      "<|tool_response_end|>",
    ],
  },
  granite: {
    from: "IBM Granite 3.x (ibm-granite granite-3.0-8b-instruct tokenizer_config.json)",
    markers: ["<|start_of_role|>", "<|end_of_role|>", "<|end_of_text|>", "<|tool_call|>"],
  },
  apriel: {
    from: "ServiceNow Apriel 1.5 (llama.cpp models/templates/unsloth-Apriel-1.5.jinja)",
    markers: [
      "<|content|>",
      "<|tool_result|>",
      "<available_tools>",
      "<tool_calls>",
      "</tool_calls>",
      "<thinking>",
      "[BEGIN FINAL RESPONSE]",
      "[END FINAL RESPONSE]",
    ],
  },
  gigachat: {
    from: "GigaChat 3 (llama.cpp models/templates/GigaChat3-10B-A1.8B.jinja)",
    markers: ["<|role_sep|>", "<|message_sep|>"],
  },
  roleTags: {
    from: "role and ChatML names written as plain tags, as fine-tunes and hand-written prompts use them",
    markers: [
      "<system>",
      "<user>",
      "<assistant>",
      "<human>",
      "<model>",
      "<developer>",
      "<im_start>",
      "<im_end>",
      "<endoftext>",
    ],
  },
  longcat: {
    from: "LongCat tool calls (mlx-lm's tool parsers, as its documentation lists them)",
    markers: ["<longcat_tool_call>", "</longcat_tool_call>"],
  },
} as const satisfies Record<string, MarkerFamily>;

/**
 * Role words that open a turn at the start of a line (`Human:`, `### System:`): Anthropic's and most
 * plain-text templates, Llama 3's `ipython`, GLM's `observation` (also ReAct's tool-result line) and
 * Command R's `chatbot`.
 */
export const ROLE_WORDS: readonly string[] = [
  "system",
  "user",
  "assistant",
  "human",
  "developer",
  "model",
  "tool",
  "ipython",
  "observation",
  "chatbot",
];

/** Every listed marker, each family's in turn. */
export const ALL_MARKERS: readonly string[] = Object.values(CHAT_TEMPLATE_MARKERS).flatMap(
  (family: MarkerFamily) => family.markers,
);

/** A marker as the fence reads it: full-width `｜` and `▁` as `|` and `_`. */
function plain(marker: string): string {
  return marker.normalize("NFKC").replaceAll("▁", "_");
}

/** The name of a `<|name|>` token. */
const TOKEN_FORM = /^<\|\/?([^|<>]+)\|>$/;
/** The name of a tag: `<name>`, `</name>`, `<ns:name>`, `<|DSML|name …>`, `<function=NAME>`. */
const TAG_FORM = /^<\/?(?:[A-Za-z][\w-]*:|\|[A-Za-z]+\|)?([A-Za-z_][\w]*)(?:[=\s][^<>]*)?>$/;
/** The name of a bracket token: `[NAME]`, `[/NAME]`, `<<NAME>>`, `<</NAME>>`. */
const BRACKET_FORM = /^(?:\[\/?([A-Za-z][\w ]*)\]|<<\/?([A-Za-z]\w*)>>)$/;

/** The names in `<|name|>` tokens: a look-alike pipe (a letter such as `Ӏ`) is read only around these. */
export const TOKEN_NAMES: readonly string[] = unique(
  ALL_MARKERS.flatMap((marker) =>
    [...plain(marker).matchAll(/<\|\/?([^|<>]+)\|>/g)].map((match) => match[1] ?? ""),
  ),
);

/** The names of tag markers, their digits standing for any number. */
export const TAG_NAMES: readonly string[] = unique(
  ALL_MARKERS.map(plain)
    .filter((marker) => !TOKEN_FORM.test(marker) && !marker.startsWith("<<"))
    .map((marker) => TAG_FORM.exec(marker)?.[1])
    .filter((name): name is string => name !== undefined),
);

/** The names of bracket tokens. */
export const BRACKET_NAMES: readonly string[] = unique(
  ALL_MARKERS.map((marker) => BRACKET_FORM.exec(plain(marker)))
    .map((match) => match?.[1] ?? match?.[2])
    .filter((name): name is string => name !== undefined),
);

/** Markers of no common form (MiniMax's `]~b]`): each matched as written. */
export const ODD_MARKERS: readonly string[] = ALL_MARKERS.map(plain).filter(
  (marker) =>
    !/<\|[^|<>]+\|>/.test(marker) &&
    !/^<\|?[\w"]+\|?>$/.test(marker) &&
    !TAG_FORM.test(marker) &&
    !BRACKET_FORM.test(marker),
);

function unique(names: readonly string[]): string[] {
  return [...new Set(names.map((name) => name.toLowerCase()))];
}
