import MinervaCoordinator

extension AppDescription {
    /// One stack, the demo's screens, a guarded screen and routes: the model tests' app.
    static let basic: AppDescription = {
        let text = #"""
            {
              "name": "basic", "scheme": "basic",
              "root": {"screen": "home"},
              "screens": {
                "home": {}, "settings": {},
                "profile": {"params": ["userId"]},
                "followers": {"params": ["userId"]},
                "secret": {"requires": "signedIn", "otherwise": {"screen": "login"}},
                "login": {"presentation": "present", "style": "formSheet", "embedInNavigation": true},
                "photo": {"presentation": "present", "style": "fullScreen", "params": ["photoId"]},
                "onboarding": {"presentation": "present", "style": "formSheet", "embedInNavigation": true},
                "onboardingStep": {"params": ["step"]}
              },
              "routes": [
                {"path": "/users/:userId", "steps": [{"screen": "profile", "params": {"userId": ":userId"}}]},
                {"path": "/users/:userId/followers", "steps": [
                  {"screen": "profile", "params": {"userId": ":userId"}}, {"screen": "followers", "params": {"userId": ":userId"}}]},
                {"path": "/photos/:photoId", "steps": [{"screen": "photo", "params": {"photoId": ":photoId"}}]},
                {"path": "/secret", "steps": [{"screen": "settings"}, {"screen": "secret"}, {"screen": "settings"}]},
                {"path": "/broken", "steps": [{"screen": "photo", "params": {"photoId": "1"}}, {"screen": "settings"}]}
              ]
            }
            """#
        return try! AppDescription.parse(Array(text.utf8), source: "basic")
    }()
}
