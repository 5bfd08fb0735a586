extension AppDescription {
    /// The JSON text of the built-in demo app, drawn from Minerva's own examples: an app of root
    /// flows — onboarding (a welcome screen and its steps), sign-in (with a sign-up sheet) and
    /// the main tab bar (home and account) — chosen by the `onboarded` and `signedIn` flags; user
    /// profiles with their followers, settings guarded behind a confirmation sheet, a full-screen
    /// photo viewer, and deep links into each flow (also as universal links on
    /// `demo.example.com`).
    public static let demoJSON = #"""
        {
          "name": "demo",
          "scheme": "demo",
          "hosts": ["demo.example.com"],
          "flows": {
            "onboarding": {"root": {"screen": "welcome"}, "completes": "onboarded"},
            "auth":       {"root": {"screen": "signIn"}, "completes": "signedIn"},
            "main":       {"root": {"tabs": [{"id": "home", "screen": "home"}, {"id": "account", "screen": "account"}]}}
          },
          "launch": [
            {"unless": "onboarded", "flow": "onboarding"},
            {"unless": "signedIn", "flow": "auth"},
            {"flow": "main"}
          ],
          "screens": {
            "welcome":        {"presentation": "push", "title": "Welcome"},
            "onboardingStep": {"presentation": "push", "params": ["step"], "title": "Getting Started"},
            "signIn":         {"presentation": "push", "title": "Sign In"},
            "signUp":         {"presentation": "present", "style": "formSheet", "embedInNavigation": true, "title": "Create Account"},
            "home":           {"presentation": "push", "title": "Home"},
            "account":        {"presentation": "push", "title": "Account"},
            "profile":        {"presentation": "push", "params": ["userId"], "title": "Profile"},
            "followers":      {"presentation": "push", "params": ["userId"], "title": "Followers"},
            "settings":       {"presentation": "push", "title": "Settings",
                               "requires": "verified", "otherwise": {"screen": "verify"}},
            "verify":         {"presentation": "present", "style": "formSheet", "embedInNavigation": true, "title": "Confirm It's You"},
            "editProfile":    {"presentation": "present", "style": "pageSheet", "embedInNavigation": true, "title": "Edit Profile"},
            "photo":          {"presentation": "present", "style": "fullScreen", "params": ["photoId"], "title": "Photo"}
          },
          "routes": [
            {"path": "/welcome/:step", "flow": "onboarding", "steps": [{"screen": "onboardingStep", "params": {"step": ":step"}}]},
            {"path": "/sign-up", "flow": "auth", "steps": [{"screen": "signUp"}]},
            {"path": "/users/:userId", "flow": "main", "tab": "home",
             "steps": [{"screen": "profile", "params": {"userId": ":userId"}}]},
            {"path": "/users/:userId/followers", "flow": "main", "tab": "home",
             "steps": [{"screen": "profile", "params": {"userId": ":userId"}},
                       {"screen": "followers", "params": {"userId": ":userId"}}]},
            {"path": "/photos/:photoId", "flow": "main", "steps": [{"screen": "photo", "params": {"photoId": ":photoId"}}]},
            {"path": "/settings", "flow": "main", "tab": "account", "steps": [{"screen": "settings"}]}
          ]
        }
        """#

    /// The built-in demo app, parsed from ``demoJSON``.
    public static let demo: AppDescription = {
        do {
            return try AppDescription.parse(Array(demoJSON.utf8), source: "built-in demo app")
        } catch {
            preconditionFailure("the built-in demo app is invalid: \(error)")
        }
    }()
}
