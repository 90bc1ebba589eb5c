/**
 * @module An excerpt of OpenAI's OpenAPI description: the audio shapes the fake answers and checks.
 * Source: openai/openai-openapi@f85dbe223d40e1a31cba812ab2d755c7e98a92a3 openapi.yaml, components.schemas: the audio shapes the fake answers and checks, descriptions and x- keys dropped.
 */

export const OPENAI_AUDIO_SCHEMAS: Record<string, unknown> = {
  CreateSpeechRequest: {
    type: "object",
    additionalProperties: false,
    properties: {
      model: {
        anyOf: [
          {
            type: "string",
          },
          {
            type: "string",
            enum: ["tts-1", "tts-1-hd", "gpt-4o-mini-tts", "gpt-4o-mini-tts-2025-12-15"],
          },
        ],
      },
      input: {
        type: "string",
        maxLength: 4096,
      },
      instructions: {
        type: "string",
        maxLength: 4096,
      },
      voice: {
        $ref: "#/components/schemas/VoiceIdsOrCustomVoice",
      },
      response_format: {
        default: "mp3",
        type: "string",
        enum: ["mp3", "opus", "aac", "flac", "wav", "pcm"],
      },
      speed: {
        type: "number",
        default: 1,
        minimum: 0.25,
        maximum: 4,
      },
      stream_format: {
        type: "string",
        default: "audio",
        enum: ["sse", "audio"],
      },
    },
    required: ["model", "input", "voice"],
  },
  CreateTranscriptionResponseJson: {
    type: "object",
    properties: {
      text: {
        type: "string",
      },
      languages: {
        type: "array",
        items: {
          $ref: "#/components/schemas/TranscriptionLanguage",
        },
      },
      logprobs: {
        type: "array",
        items: {
          type: "object",
          properties: {
            token: {
              type: "string",
            },
            logprob: {
              type: "number",
            },
            bytes: {
              type: "array",
              items: {
                type: "number",
              },
            },
          },
        },
      },
      usage: {
        type: "object",
        oneOf: [
          {
            $ref: "#/components/schemas/TranscriptTextUsageTokens",
            title: "Token Usage",
          },
          {
            $ref: "#/components/schemas/TranscriptTextUsageDuration",
            title: "Duration Usage",
          },
        ],
      },
    },
    required: ["text"],
  },
  Error: {
    type: "object",
    properties: {
      code: {
        anyOf: [
          {
            type: "string",
          },
          {
            type: "null",
          },
        ],
      },
      message: {
        type: "string",
      },
      param: {
        anyOf: [
          {
            type: "string",
          },
          {
            type: "null",
          },
        ],
      },
      type: {
        type: "string",
      },
    },
    required: ["type", "message", "param", "code"],
  },
  ErrorResponse: {
    type: "object",
    properties: {
      error: {
        $ref: "#/components/schemas/Error",
      },
    },
    required: ["error"],
  },
  TranscriptTextUsageDuration: {
    type: "object",
    title: "Duration Usage",
    properties: {
      type: {
        type: "string",
        enum: ["duration"],
      },
      seconds: {
        type: "number",
        format: "double",
      },
    },
    required: ["type", "seconds"],
  },
  TranscriptTextUsageTokens: {
    type: "object",
    title: "Token Usage",
    properties: {
      type: {
        type: "string",
        enum: ["tokens"],
      },
      input_tokens: {
        type: "integer",
      },
      input_token_details: {
        type: "object",
        properties: {
          text_tokens: {
            type: "integer",
          },
          audio_tokens: {
            type: "integer",
          },
        },
      },
      output_tokens: {
        type: "integer",
      },
      total_tokens: {
        type: "integer",
      },
    },
    required: ["type", "input_tokens", "output_tokens", "total_tokens"],
  },
  TranscriptionLanguage: {
    type: "object",
    properties: {
      code: {
        type: "string",
      },
    },
    required: ["code"],
  },
  VoiceIdsOrCustomVoice: {
    title: "Voice",
    anyOf: [
      {
        $ref: "#/components/schemas/VoiceIdsShared",
      },
      {
        type: "object",
        additionalProperties: false,
        required: ["id"],
        properties: {
          id: {
            type: "string",
          },
        },
      },
    ],
  },
  VoiceIdsShared: {
    anyOf: [
      {
        type: "string",
      },
      {
        type: "string",
        enum: ["alloy", "ash", "ballad", "coral", "echo", "sage", "shimmer", "verse", "marin", "cedar"],
      },
    ],
  },
};
