print("demo-cli")
