// Reads `experimental.tessel` from the server's capabilities and turns the matching commands on or off.
//
// Like vscode-clangd's astProvider check: the `tessel.viewIR` and `tessel.runKernel` context keys gate the
// commands in package.json (`enablement`/`when`), so a server without a feature never shows a dead command.
import * as vscode from 'vscode';
import type { ClientCapabilities, FeatureState, ServerCapabilities, StaticFeature } from 'vscode-languageclient';
import { TesselCapabilities, tesselCapabilities } from './protocol';

const none: TesselCapabilities = { viewIR: false, runKernel: false };

export class TesselCapabilitiesFeature implements StaticFeature {
  private current: TesselCapabilities = none;

  get capabilities(): TesselCapabilities {
    return this.current;
  }

  fillClientCapabilities(_capabilities: ClientCapabilities): void {
    // The client side of tessel's extensions is fixed; the server needs no flag from us.
  }

  initialize(capabilities: ServerCapabilities): void {
    this.current = tesselCapabilities(capabilities);
    setContexts(this.current);
  }

  getState(): FeatureState {
    return { kind: 'static' };
  }

  clear(): void {
    this.current = none;
    setContexts(none);
  }
}

function setContexts(c: TesselCapabilities): void {
  void vscode.commands.executeCommand('setContext', 'tessel.viewIR', c.viewIR);
  void vscode.commands.executeCommand('setContext', 'tessel.runKernel', c.runKernel);
}
