extension AppDescription {
    /// The JSON text of the built-in demo app, drawn from Minerva's own examples: a home
    /// screen, user profiles with their followers, settings, a full-screen photo viewer and
    /// an onboarding flow in an embedded form sheet.
    public static let demoJSON = #"""
        {
          "name": "demo",
          "scheme": "demo",
          "root": {"screen": "home"},
          "screens": {
            "home":        {"presentation": "push", "title": "Home"},
            "profile":     {"presentation": "push", "params": ["userId"], "title": "Profile"},
            "followers":   {"presentation": "push", "params": ["userId"], "title": "Followers"},
            "settings":    {"presentation": "push", "title": "Settings"},
            "editProfile": {"presentation": "present", "style": "pageSheet", "embedInNavigation": true, "title": "Edit Profile"},
            "photo":       {"presentation": "present", "style": "fullScreen", "params": ["photoId"], "title": "Photo"},
            "onboarding":  {"presentation": "present", "style": "formSheet", "embedInNavigation": true, "title": "Welcome"},
            "onboardingStep": {"presentation": "push", "params": ["step"], "title": "Getting Started"}
          }
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
