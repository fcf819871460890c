// The renderer's platform-neutral rules live in AgentUIRendering (compiled and tested on Linux
// too); an app that imports AgentUISwiftUI sees their public part (`NodeValue.displayText`).

@_exported import AgentUIRendering
