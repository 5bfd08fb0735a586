extension AppDescription {
    /// The JSON text of the built-in demo app, drawn from Minerva's own examples: two tabs (home
    /// and account), user profiles with their followers, settings guarded behind a login form
    /// sheet, a full-screen photo viewer, an onboarding flow in an embedded form sheet, and a
    /// deep link for each.
    public static let demoJSON = #"""
        {
          "name": "demo",
          "scheme": "demo",
          "root": {"tabs": [{"id": "home", "screen": "home"}, {"id": "account", "screen": "account"}]},
          "screens": {
            "home":           {"presentation": "push", "title": "Home"},
            "account":        {"presentation": "push", "title": "Account"},
            "profile":        {"presentation": "push", "params": ["userId"], "title": "Profile"},
            "followers":      {"presentation": "push", "params": ["userId"], "title": "Followers"},
            "settings":       {"presentation": "push", "title": "Settings",
                               "requires": "signedIn", "otherwise": {"screen": "login"}},
            "login":          {"presentation": "present", "style": "formSheet", "embedInNavigation": true, "title": "Sign In"},
            "editProfile":    {"presentation": "present", "style": "pageSheet", "embedInNavigation": true, "title": "Edit Profile"},
            "photo":          {"presentation": "present", "style": "fullScreen", "params": ["photoId"], "title": "Photo"},
            "onboarding":     {"presentation": "present", "style": "formSheet", "embedInNavigation": true, "title": "Welcome"},
            "onboardingStep": {"presentation": "push", "params": ["step"], "title": "Getting Started"}
          },
          "routes": [
            {"path": "/users/:userId", "tab": "home",
             "steps": [{"screen": "profile", "params": {"userId": ":userId"}}]},
            {"path": "/users/:userId/followers", "tab": "home",
             "steps": [{"screen": "profile", "params": {"userId": ":userId"}},
                       {"screen": "followers", "params": {"userId": ":userId"}}]},
            {"path": "/photos/:photoId", "steps": [{"screen": "photo", "params": {"photoId": ":photoId"}}]},
            {"path": "/settings", "tab": "account", "steps": [{"screen": "settings"}]},
            {"path": "/welcome", "steps": [{"screen": "onboarding"}]},
            {"path": "/welcome/:step",
             "steps": [{"screen": "onboarding"}, {"screen": "onboardingStep", "params": {"step": ":step"}}]}
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
