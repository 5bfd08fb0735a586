extension AppDescription {
    /// The JSON text of the built-in demo app, drawn from Minerva's own examples: an app of root
    /// flows — onboarding (a welcome screen and its steps), sign-in (with a sign-up sheet) and
    /// the main tab bar (home and account) — chosen by the `onboarded` and `signedIn` flags; user
    /// profiles with their followers, settings guarded behind a confirmation sheet, a full-screen
    /// photo viewer, and deep links into each flow (also as universal links on
    /// `demo.example.com`). Its screens carry sample lists whose cells navigate deeper (the
    /// onboarding steps, people and a photo on home, a profile's followers), which the web client
    /// shows in the sessions it creates.
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
            "welcome":        {"presentation": "push", "title": "Welcome", "sampleList": {"sections": [{"id": "getting started", "items": [
                                 {"id": "interests", "kind": "step", "content": {"title": "Pick your interests", "subtitle": "step 1 of 3",
                                  "navigate": {"screen": "onboardingStep", "params": {"step": "1"}}}},
                                 {"id": "people", "kind": "step", "content": {"title": "Find people to follow", "subtitle": "step 2 of 3",
                                  "navigate": {"screen": "onboardingStep", "params": {"step": "2"}}}},
                                 {"id": "notifications", "kind": "step", "content": {"title": "Turn on notifications", "subtitle": "step 3 of 3",
                                  "navigate": {"screen": "onboardingStep", "params": {"step": "3"}}}}]}]}},
            "onboardingStep": {"presentation": "push", "params": ["step"], "title": "Getting Started"},
            "signIn":         {"presentation": "push", "title": "Sign In", "sampleList": {"sections": [{"id": "new here?", "items": [
                                 {"id": "sign-up", "kind": "action", "content": {"title": "Create an account", "navigate": {"screen": "signUp"}}}]}]}},
            "signUp":         {"presentation": "present", "style": "formSheet", "embedInNavigation": true, "title": "Create Account"},
            "home":           {"presentation": "push", "title": "Home", "sampleList": {"sections": [
                                 {"id": "people", "items": [
                                   {"id": "u42", "kind": "user", "content": {"name": "Ada Lovelace", "handle": "@ada",
                                    "navigate": {"screen": "profile", "params": {"userId": "42"}}}},
                                   {"id": "u7", "kind": "user", "content": {"name": "Grace Hopper", "handle": "@grace",
                                    "navigate": {"screen": "profile", "params": {"userId": "7"}}}},
                                   {"id": "u3", "kind": "user", "content": {"name": "Linus Torvalds", "handle": "@linus",
                                    "navigate": {"screen": "profile", "params": {"userId": "3"}}}}]},
                                 {"id": "photos", "items": [
                                   {"id": "p7", "kind": "photo", "content": {"title": "Harbour at dawn", "subtitle": "photo 7",
                                    "navigate": {"screen": "photo", "params": {"photoId": "7"}}}}]}]}},
            "account":        {"presentation": "push", "title": "Account", "sampleList": {"sections": [{"id": "account", "items": [
                                 {"id": "me", "kind": "user", "content": {"name": "Ada Lovelace", "subtitle": "your profile",
                                  "navigate": {"screen": "profile", "params": {"userId": "42"}}}},
                                 {"id": "edit", "kind": "action", "content": {"title": "Edit profile", "navigate": {"screen": "editProfile"}}},
                                 {"id": "settings", "kind": "action", "content": {"title": "Settings", "subtitle": "asks you to confirm it's you first",
                                  "navigate": {"screen": "settings"}}}]}]}},
            "profile":        {"presentation": "push", "params": ["userId"], "title": "Profile", "sampleList": {"sections": [{"id": "profile", "items": [
                                 {"id": "followers", "kind": "link", "content": {"title": "Followers",
                                  "navigate": {"screen": "followers", "params": {"userId": ":userId"}}}},
                                 {"id": "photo", "kind": "photo", "content": {"title": "Latest photo", "subtitle": "photo 7",
                                  "navigate": {"screen": "photo", "params": {"photoId": "7"}}}}]}]}},
            "followers":      {"presentation": "push", "params": ["userId"], "title": "Followers", "sampleList": {"sections": [{"id": "followers", "items": [
                                 {"id": "u7", "kind": "user", "content": {"name": "Grace Hopper", "handle": "@grace",
                                  "navigate": {"screen": "profile", "params": {"userId": "7"}}}},
                                 {"id": "u4", "kind": "user", "content": {"name": "Barbara Liskov", "handle": "@barbara",
                                  "navigate": {"screen": "profile", "params": {"userId": "4"}}}}]}]}},
            "settings":       {"presentation": "push", "title": "Settings",
                               "requires": "verified", "otherwise": {"screen": "verify"}},
            "verify":         {"presentation": "present", "style": "formSheet", "embedInNavigation": true, "title": "Confirm It's You"},
            "editProfile":    {"presentation": "present", "style": "pageSheet", "embedInNavigation": true, "title": "Edit Profile", "result": true},
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
