public import MinervaCoordinator

/// An app whose one route pushes six screens (`/chain/1/2/3/4/5/6`): a 6-deep stack above the
/// root, for what a deep link costs when the stack is already shown (model-driver `deeplink6-*`).
public let sixStepAppJSON = #"""
    {
      "name": "chain",
      "root": {"screen": "home"},
      "screens": {
        "home": {}, "s1": {"params": ["id"]}, "s2": {"params": ["id"]}, "s3": {"params": ["id"]},
        "s4": {"params": ["id"]}, "s5": {"params": ["id"]}, "s6": {"params": ["id"]}
      },
      "routes": [
        {"path": "/chain/:a/:b/:c/:d/:e/:f",
         "steps": [{"screen": "s1", "params": {"id": ":a"}}, {"screen": "s2", "params": {"id": ":b"}},
                   {"screen": "s3", "params": {"id": ":c"}}, {"screen": "s4", "params": {"id": ":d"}},
                   {"screen": "s5", "params": {"id": ":e"}}, {"screen": "s6", "params": {"id": ":f"}}]}
      ]
    }
    """#

/// The app of ``sixStepAppJSON``, parsed as the server would parse a file.
public func sixStepApp() -> AppDescription {
    try! AppDescription.parse(Array(sixStepAppJSON.utf8), source: "bench")
}

/// The link of the 6-deep stack, with the first and last ids given.
public func sixStepLink(first: Int = 1, last: Int = 6) -> String {
    "/chain/\(first)/2/3/4/5/\(last)"
}
