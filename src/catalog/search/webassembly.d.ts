/**
 * The part of WebAssembly's JavaScript API that vector-matrix.ts uses. Node has it all, but the libraries
 * this project compiles with (ES2023 and @types/node 20) do not declare it, and the DOM library would
 * declare far more than Node has.
 */
declare global {
  namespace WebAssembly {
    interface Memory {
      readonly buffer: ArrayBuffer;
      grow(pages: number): number;
    }
    var Memory: { new (descriptor: { initial: number; maximum?: number }): Memory };
    // Opaque: compiled once, instantiated once.
    interface Module {}
    var Module: { new (bytes: Uint8Array): Module };
    interface Instance {
      readonly exports: Record<string, unknown>;
    }
    var Instance: { new (module: Module, imports: Record<string, Record<string, unknown>>): Instance };
  }
}

export {};
